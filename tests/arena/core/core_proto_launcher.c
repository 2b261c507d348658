/* The process the arena starts for a warm proto_bot (core_warm_proto.py): it hands its stdin,
   stdout and stderr to the warm server named by $WARM_PROTO_SOCKET (an abstract Unix socket),
   which forks the bot with them; it closes its own copies, so that the bot alone holds the
   arena's pipes, then waits for the bot's wait status and ends as the bot did. It starts in
   about a millisecond, where Python takes tens (hundreds on a busy machine). Exit status 125:
   no server. */
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    const char *name = getenv("WARM_PROTO_SOCKET");
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (name == NULL || strlen(name) >= sizeof addr.sun_path) return 125;
    memcpy(addr.sun_path + 1, name, strlen(name));  /* sun_path[0] == 0: abstract */
    socklen_t length = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
    int server = socket(AF_UNIX, SOCK_STREAM, 0);
    if (server < 0 || connect(server, (struct sockaddr *)&addr, length) != 0) return 125;

    int fds[3] = {0, 1, 2};
    union { char bytes[CMSG_SPACE(sizeof fds)]; struct cmsghdr align; } control;
    char byte = 0;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.bytes,
                         .msg_controllen = sizeof control.bytes};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(c), fds, sizeof fds);
    if (sendmsg(server, &msg, 0) != 1) return 125;
    close(0);
    close(1);
    close(2);

    int status;
    if (recv(server, &status, sizeof status, MSG_WAITALL) != sizeof status) return 125;
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    return WEXITSTATUS(status);
}
