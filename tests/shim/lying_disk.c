/* A file system that lies, for `protest` run under LD_PRELOAD (tests/lying_disk.rs builds it
 * with `cc -shared -fPIC`). Each lie reports success and does not do what it says; which ones
 * happen is chosen by the environment:
 *
 *   PROTEST_LIE_RENAME=SUFFIX   rename() to a path ending in SUFFIX renames nothing
 *   PROTEST_LIE_WRITE=TEXT      write() to a file whose path contains TEXT writes half its bytes
 *   PROTEST_LIE_WRITE_NTH=N     ... only the N-th such write (from 1), not every one
 *   PROTEST_LIE_FSYNC=1         fsync() and fdatasync() do nothing
 *   PROTEST_CLOCK_OFFSET=SECS   the real-time clock is moved by SECS (negative: before 1970)
 *   PROTEST_LIE_LOG=FILE        each lie told is noted in FILE, one line each
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void *real(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

/* Notes a lie in PROTEST_LIE_LOG, with what it was told about. */
static void told(const char *what, const char *path) {
    const char *log = getenv("PROTEST_LIE_LOG");
    if (!log || !*log) return;
    static ssize_t (*write_)(int, const void *, size_t);
    if (!write_) write_ = real("write");
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char line[4200];
    int n = snprintf(line, sizeof line, "%s %s\n", what, path);
    if (n > 0) write_(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    close(fd);
}

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int lies_about_rename(const char *to) {
    const char *suffix = getenv("PROTEST_LIE_RENAME");
    if (suffix && *suffix && to && ends_with(to, suffix)) {
        told("rename", to);
        return 1;
    }
    return 0;
}

int rename(const char *from, const char *to) {
    static int (*next)(const char *, const char *);
    if (!next) next = real("rename");
    return lies_about_rename(to) ? 0 : next(from, to);
}

int renameat(int from_dir, const char *from, int to_dir, const char *to) {
    static int (*next)(int, const char *, int, const char *);
    if (!next) next = real("renameat");
    return lies_about_rename(to) ? 0 : next(from_dir, from, to_dir, to);
}

int renameat2(int from_dir, const char *from, int to_dir, const char *to, unsigned int flags) {
    static int (*next)(int, const char *, int, const char *, unsigned int);
    if (!next) next = real("renameat2");
    return lies_about_rename(to) ? 0 : next(from_dir, from, to_dir, to, flags);
}

static atomic_long matching_writes;

ssize_t write(int fd, const void *buf, size_t count) {
    static ssize_t (*next)(int, const void *, size_t);
    if (!next) next = real("write");
    const char *text = getenv("PROTEST_LIE_WRITE");
    if (!text || !*text || count < 2) return next(fd, buf, count);
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return next(fd, buf, count);
    path[n] = '\0';
    if (!strstr(path, text)) return next(fd, buf, count);
    long nth = atomic_fetch_add(&matching_writes, 1) + 1;
    const char *only = getenv("PROTEST_LIE_WRITE_NTH");
    if (only && *only && atol(only) != nth) return next(fd, buf, count);
    ssize_t written = next(fd, buf, count / 2);
    if (written < 0) return written;
    told("write", path);
    return (ssize_t)count;
}

static int lies_about_fsync(const char *what) {
    const char *lie = getenv("PROTEST_LIE_FSYNC");
    if (lie && *lie == '1') {
        told(what, "");
        return 1;
    }
    return 0;
}

int fsync(int fd) {
    static int (*next)(int);
    if (!next) next = real("fsync");
    return lies_about_fsync("fsync") ? 0 : next(fd);
}

int fdatasync(int fd) {
    static int (*next)(int);
    if (!next) next = real("fdatasync");
    return lies_about_fsync("fdatasync") ? 0 : next(fd);
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    static int (*next)(clockid_t, struct timespec *);
    if (!next) next = real("clock_gettime");
    int result = next(clock, now);
    const char *offset = getenv("PROTEST_CLOCK_OFFSET");
    if (result == 0 && offset && *offset && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE))
        now->tv_sec += atoll(offset);
    return result;
}
