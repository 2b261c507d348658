// A C++ course strategy that uses iostreams and new/delete but is linked WITHOUT libstdc++,
// as the course's are: it loads only where libstdc++.so.6 was loaded with global visibility.
#include <iostream>

class Point { public: int x; int y; Point(int x_, int y_) : x(x_), y(y_) {} };

extern "C" Point *getPoint(const int M, const int N, const int *top, const int *board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    (void)M; (void)board; (void)lastX; (void)lastY; (void)noX; (void)noY;
    std::cerr << "cpp strategy thinking" << std::endl;
    for (int y = N - 1; y >= 0; --y)
        if (top[y] > 0) return new Point(top[y] - 1, y);
    return new Point(-1, -1);
}

extern "C" void clearPoint(Point *p) { delete p; }
