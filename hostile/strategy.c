/* A course-ABI strategy whose misbehaviour is chosen at compile time with -DMODE_<NAME>.
 * Without a mode it plays the leftmost legal column. Built by the tests, never committed built. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { int x; int y; } Point;

static int calls_this_load; /* static state: must start at 0 in every game */

#ifdef MODE_UNDEFINED_SYMBOL
extern void no_such_function_anywhere(void);
#endif

#if defined(MODE_INIT_SEGV) || defined(MODE_INIT_LOOP)
__attribute__((constructor)) static void static_initialisation(void) {
#ifdef MODE_INIT_SEGV
    raise(SIGSEGV);
#else
    volatile int spin = 1;
    while (spin) {}
#endif
}
#endif

#ifndef MODE_NO_GET
Point *getPoint(const int M, const int N, const int *top, const int *board,
                const int lastX, const int lastY, const int noX, const int noY) {
    Point *p = (Point *)malloc(sizeof(Point));
    int y;
    (void)board; (void)lastY;
    calls_this_load++;
#if defined(MODE_SEGV)
    *(volatile int *)0 = 1;
#elif defined(MODE_ABORT)
    abort();
#elif defined(MODE_LOOP)
    for (;;) {}
#elif defined(MODE_SLEEP)
    sleep(10);
#elif defined(MODE_EXIT0)
    exit(0);
#elif defined(MODE_NULL)
    free(p);
    return NULL;
#elif defined(MODE_OFFBOARD)
    p->x = M; p->y = 0; return p;
#elif defined(MODE_FORBIDDEN)
    p->x = noX; p->y = noY; return p;
#elif defined(MODE_FULLCOL)
    p->x = top[0] > 0 ? top[0] - 1 : 0; p->y = 0; return p;
#elif defined(MODE_STATEFUL)
    if (lastX == -1 && calls_this_load != 1) { p->x = -1; p->y = -1; return p; }
#elif defined(MODE_STDOUT_FLOOD)
    {
        static char junk[1 << 20];
        memset(junk, 'x', sizeof junk);
        fwrite(junk, 1, sizeof junk, stdout);
        fflush(stdout);
    }
#elif defined(MODE_UNDEFINED_SYMBOL)
    no_such_function_anywhere();
#endif
#if defined(MODE_FORK_SLEEPER)
    if (calls_this_load == 1 && fork() == 0) { sleep(60); _exit(0); }
#endif
#if defined(MODE_STDERR_NOTE)
    fprintf(stderr, "strategy note: call %d\n", calls_this_load);
    if (calls_this_load == 3) *(volatile int *)0 = 1;
#endif
    for (y = 0; y < N; y++) {
        if (top[y] > 0) { p->x = top[y] - 1; p->y = y; return p; }
    }
    p->x = -1; p->y = -1;
    return p;
}
#endif

#ifndef MODE_NO_CLEAR
void clearPoint(Point *p) {
    free(p);
#ifdef MODE_DOUBLE_FREE
    free(p);
#endif
#ifdef MODE_CLEAR_SEGV
    *(volatile int *)0 = 1;
#endif
}
#endif
