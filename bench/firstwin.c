/* firstwin (the project's copy of its start-up measuring tool; bench/first_content.py
 * builds and runs it): exec a command, report ms from exec to its first top-level window
 * being mapped (MapNotify on the root window, event-driven, no polling), ms to
 * first "content" in that window (>= NCOLORS distinct colours on screen inside
 * the window rectangle, checked on XDamage events and every 50 ms), and memory
 * of the process at HOLD seconds after exec. Then kills the process group.
 *
 * usage: firstwin LABEL HOLD_S SCREENSHOT(or -) -- cmd args...
 * prints one TSV line on stdout:
 * label map_ms content_ms x y w h override name vmrss_kb vmhwm_kb rssanon_kb rssfile_kb pss_kb threads nkids kids_rss_kb final_colors mesa_kb
 * (-1 = not reached). With FW_TITLES=1 in the environment, every title change of that
 * window is also logged to stderr as "title<TAB>ms<TAB>title".
 * build: gcc -O2 -Wall -o firstwin firstwin.c -lX11 -lXdamage   (libx11-dev libxdamage-dev)
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NCOLORS 16

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long win_pid(Display *d, Window w) {
    Atom a = XInternAtom(d, "_NET_WM_PID", False), type;
    int fmt; unsigned long n, after; unsigned char *p = NULL; long pid = -1;
    if (XGetWindowProperty(d, w, a, 0, 1, False, XA_CARDINAL, &type, &fmt, &n, &after, &p) == Success && p && n == 1)
        pid = (long)*(unsigned long *)p;
    if (p) XFree(p);
    return pid;
}

static int err_handler(Display *d, XErrorEvent *e) { (void)d; (void)e; return 0; }

static int count_colors(Display *d, Window root, int x, int y, int w, int h, int sw, int sh) {
    if (x < 0) { w += x; x = 0; }
    if (y < 0) { h += y; y = 0; }
    if (x + w > sw) w = sw - x;
    if (y + h > sh) h = sh - y;
    if (w <= 0 || h <= 0) return 0;
    XImage *img = XGetImage(d, root, x, y, w, h, AllPlanes, ZPixmap);
    if (!img) return 0;
    unsigned long seen[256]; int n = 0;
    for (int j = 0; j < h && n < 256; j += 2)
        for (int i = 0; i < w && n < 256; i += 2) {
            unsigned long px = XGetPixel(img, i, j) & 0xffffff;
            int k; for (k = 0; k < n; k++) if (seen[k] == px) break;
            if (k == n) seen[n++] = px;
        }
    XDestroyImage(img);
    return n;
}

static long status_kb(int pid, const char *key) {
    char path[64], line[256]; long v = -1; size_t kl = strlen(key);
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r"); if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && line[kl] == ':') { v = atol(line + kl + 1); break; }
    fclose(f); return v;
}

static long pss_kb(int pid) {
    char path[64], line[256]; long v = -1;
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", pid);
    FILE *f = fopen(path, "r"); if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "Pss:", 4)) { v = atol(line + 4); break; }
    fclose(f); return v;
}

/* Rss (kB) of mappings of the Mesa GL driver stack: libLLVM, dri drivers, libgallium, libglapi */
static long mesa_kb(int pid) {
    char path[64], line[512], cur[400] = ""; long v = 0;
    snprintf(path, sizeof path, "/proc/%d/smaps", pid);
    FILE *f = fopen(path, "r"); if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        char a[64], b[16], c[16], d[16], e[16], pth[400] = "";
        if (sscanf(line, "%63s %15s %15s %15s %15s %399s", a, b, c, d, e, pth) >= 5 && strchr(a, '-')) {
            snprintf(cur, sizeof cur, "%s", pth);
        } else if (!strncmp(line, "Rss:", 4)) {
            if (strstr(cur, "libLLVM") || strstr(cur, "/dri/") || strstr(cur, "libgallium") || strstr(cur, "libglapi"))
                v += atol(line + 4);
        }
    }
    fclose(f); return v;
}

/* count descendants (any depth) and sum their VmRSS */
static void kids(int pid, int *n, long *rss) {
    DIR *dir = opendir("/proc"); struct dirent *e;
    if (!dir) return;
    while ((e = readdir(dir))) {
        int p = atoi(e->d_name); if (p <= 0) continue;
        char path[64], buf[512]; snprintf(path, sizeof path, "/proc/%d/stat", p);
        FILE *f = fopen(path, "r"); if (!f) continue;
        if (fgets(buf, sizeof buf, f)) {
            char *rp = strrchr(buf, ')'); int ppid = 0;
            if (rp && sscanf(rp + 2, "%*c %d", &ppid) == 1 && ppid == pid) {
                (*n)++; long r = status_kb(p, "VmRSS"); if (r > 0) *rss += r;
                kids(p, n, rss);
            }
        }
        fclose(f);
    }
    closedir(dir);
}

int main(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[4], "--")) { fprintf(stderr, "usage\n"); return 2; }
    const char *label = argv[1]; double hold = atof(argv[2]) * 1e3; const char *shot = argv[3];
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "no display\n"); return 2; }
    XSetErrorHandler(err_handler);
    int dmg_ev, dmg_err; int have_dmg = XDamageQueryExtension(d, &dmg_ev, &dmg_err);
    Window root = DefaultRootWindow(d);
    int sw = DisplayWidth(d, DefaultScreen(d)), sh = DisplayHeight(d, DefaultScreen(d));
    XSelectInput(d, root, SubstructureNotifyMask);
    XSync(d, False);

    double t0 = now_ms();
    pid_t pid = fork();
    if (pid == 0) { setpgid(0, 0); execvp(argv[5], argv + 5); _exit(127); }
    setpgid(pid, pid);

    double t_map = -1, t_content = -1, last_check = 0;
    Window win = 0; int wx = 0, wy = 0, ww = 0, wh = 0, ovr = 0; char name[128] = "";
    int fd = ConnectionNumber(d), status, exited = 0;
    while (1) {
        double t = now_ms();
        if (t - t0 >= hold) break;
        if (!exited && waitpid(pid, &status, WNOHANG) == pid) exited = 1;
        while (XPending(d)) {
            XEvent ev; XNextEvent(d, &ev);
            if (ev.type == MapNotify && ev.xmap.event == root && !win) {
                Window w = ev.xmap.window;
                long wp = win_pid(d, w);
                if (wp != -1 && wp != pid) continue; /* not ours */
                XWindowAttributes wa; if (!XGetWindowAttributes(d, w, &wa)) continue;
                t_map = now_ms() - t0; win = w;
                wx = wa.x; wy = wa.y; ww = wa.width; wh = wa.height; ovr = wa.override_redirect;
                char *nm = NULL; if (XFetchName(d, w, &nm) && nm) { snprintf(name, sizeof name, "%s", nm); XFree(nm); }
                for (char *c = name; *c; c++) if (*c == '\t' || *c == '\n') *c = ' ';
                if (have_dmg) XDamageCreate(d, w, XDamageReportNonEmpty);
                if (getenv("FW_TITLES")) { XSelectInput(d, w, PropertyChangeMask); fprintf(stderr, "title\t%.1f\t%s\n", t_map, name); }
                last_check = 0;
            } else if (have_dmg && ev.type == dmg_ev + XDamageNotify) {
                XDamageNotifyEvent *de = (XDamageNotifyEvent *)&ev;
                XDamageSubtract(d, de->damage, None, None);
                last_check = 0; /* force a check */
            } else if (ev.type == PropertyNotify && ev.xproperty.window == win &&
                       (ev.xproperty.atom == XA_WM_NAME || ev.xproperty.atom == XInternAtom(d, "_NET_WM_NAME", False))) {
                char *nm = NULL;
                if (XFetchName(d, win, &nm) && nm) { fprintf(stderr, "title\t%.1f\t%s\n", now_ms() - t0, nm); XFree(nm); }
            } else if (ev.type == ConfigureNotify && ev.xconfigure.window == win && win) {
                wx = ev.xconfigure.x; wy = ev.xconfigure.y; ww = ev.xconfigure.width; wh = ev.xconfigure.height;
            }
        }
        t = now_ms();
        if (win && t_content < 0 && (last_check == 0 || t - last_check >= 50)) {
            last_check = t;
            if (count_colors(d, root, wx, wy, ww, wh, sw, sh) >= NCOLORS) t_content = now_ms() - t0;
        }
        struct pollfd pfd = { fd, POLLIN, 0 };
        int to = win && t_content < 0 ? 5 : 10;
        poll(&pfd, 1, to);
    }
    long rss = -1, hwm = -1, anon = -1, file = -1, pss = -1, thr = -1, mesa = -1; int nk = 0; long krss = 0;
    if (!exited) {
        rss = status_kb(pid, "VmRSS"); hwm = status_kb(pid, "VmHWM");
        anon = status_kb(pid, "RssAnon"); file = status_kb(pid, "RssFile");
        mesa = mesa_kb(pid); pss = pss_kb(pid); thr = status_kb(pid, "Threads");
        kids(pid, &nk, &krss);
    }
    int final_colors = win ? count_colors(d, root, wx, wy, ww, wh, sw, sh) : 0;
    if (strcmp(shot, "-")) {
        char cmd[512]; snprintf(cmd, sizeof cmd, "import -window root '%s'", shot);
        if (system(cmd) != 0) fprintf(stderr, "screenshot failed\n");
    }
    kill(-pid, SIGTERM);
    for (int i = 0; i < 300 && !exited; i++) { if (waitpid(pid, &status, WNOHANG) == pid) exited = 1; else usleep(10000); }
    if (!exited) { kill(-pid, SIGKILL); waitpid(pid, &status, 0); }
    kill(-pid, SIGKILL); /* stray group members */
    printf("%s\t%.1f\t%.1f\t%d\t%d\t%d\t%d\t%d\t%s\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%d\t%ld\t%d\t%ld\n",
           label, t_map, t_content, wx, wy, ww, wh, ovr, name, rss, hwm, anon, file, pss, thr, nk, krss, final_colors, mesa);
    fflush(stdout);
    XCloseDisplay(d);
    return 0;
}
