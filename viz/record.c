/* Recording (record.h). PNGs are numbered with six digits from 1, so that a plain sort (ls, glob)
 * is frame order for up to 999999 frames. The video is H.264 in yuv420p (what players expect) from
 * raw RGB frames on ffmpeg's standard input, at the viewer's frame rate; ffmpeg's own output goes
 * to DIR/NAME.ffmpeg.log beside the video, and a failure points to it. */
#define _POSIX_C_SOURCE 200809L /* popen, pclose, mkdir */
#include "record.h"

#include "display.h"
#include "png.h"
#include "screenshot.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

bool viz_record_is_video(const char *path)
{
    static const char *const extensions[] = {".mp4", ".mkv", ".mov", ".webm"};
    const size_t n = strlen(path);
    for (size_t k = 0; k < sizeof extensions / sizeof *extensions; ++k) {
        const size_t e = strlen(extensions[k]);
        if (n > e && !strcmp(path + n - e, extensions[k]))
            return true;
    }
    return false;
}

bool viz_record_check(const char *path)
{
    char ffmpeg[PATH_MAX];
    if (!viz_record_is_video(path) || viz_find_in_path("ffmpeg", ffmpeg, sizeof ffmpeg))
        return true;
    fprintf(
        stderr,
        "drape-view: --record %s: recording a video needs ffmpeg, which is not on PATH\n"
        "(Debian: apt-get install ffmpeg; scripts/setup.sh installs it). Or record PNGs into a\n"
        "directory: --record DIR\n",
        path);
    return false;
}

/* A path quoted for the shell: '...' with every ' written as '\''. */
static char *shell_quote(const char *s)
{
    char *q = malloc(4 * strlen(s) + 3), *o = q;
    if (!q)
        return NULL;
    *o++ = '\'';
    for (; *s; ++s) {
        if (*s == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *s;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

bool viz_record_open(viz_recorder *r, const char *path, int width, int height, int fps)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->video = viz_record_is_video(path);
    r->width = width;
    r->height = height;
    r->rgb = malloc((size_t)width * height * 3 + 1);
    r->frame = malloc((size_t)width * height * 3 + 1);
    if (!r->rgb || !r->frame) {
        fprintf(stderr, "drape-view: no memory to record %d x %d frames\n", width, height);
        return false;
    }
    if (!r->video) {
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "drape-view: --record %s: cannot make the directory: %s\n", path,
                    strerror(errno));
            return false;
        }
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr,
                    "drape-view: --record %s: not a directory (a video needs .mp4, .mkv, "
                    ".mov or .webm)\n",
                    path);
            return false;
        }
        return true;
    }
    if (!viz_record_check(path))
        return false;
    char *quoted = shell_quote(path), *log = malloc(strlen(path) + 16), *quoted_log = NULL;
    if (log)
        snprintf(log, strlen(path) + 16, "%s.ffmpeg.log", path);
    quoted_log = log ? shell_quote(log) : NULL;
    char *command = quoted && quoted_log ? malloc(strlen(quoted) + strlen(quoted_log) + 256) : NULL;
    if (command) {
        sprintf(command,
                "ffmpeg -y -loglevel error -f rawvideo -pix_fmt rgb24 -s %dx%d -r %d -i - "
                "-c:v libx264 -pix_fmt yuv420p -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' %s 2>%s",
                width, height, fps, quoted, quoted_log);
        fflush(NULL);
        r->ffmpeg = popen(command, "w");
        if (!r->ffmpeg)
            fprintf(stderr, "drape-view: --record %s: cannot start ffmpeg: %s\n", path,
                    strerror(errno));
    } else {
        fprintf(stderr, "drape-view: no memory to start ffmpeg\n");
    }
    free(quoted);
    free(quoted_log);
    free(log);
    free(command);
    return r->ffmpeg != NULL;
}

bool viz_record_frame(viz_recorder *r, int width, int height)
{
    if (!r->rgb || !viz_read_pixels(width, height, r->rgb))
        return false;
    /* crop or pad (black) to the recording's size, from the top left */
    const size_t row = (size_t)r->width * 3;
    memset(r->frame, 0, row * (size_t)r->height);
    const int w = width < r->width ? width : r->width, h = height < r->height ? height : r->height;
    for (int y = 0; y < h; ++y)
        memcpy(r->frame + (size_t)y * row, r->rgb + (size_t)y * width * 3, (size_t)w * 3);
    r->frames++;
    if (r->video) {
        if (fwrite(r->frame, 1, row * (size_t)r->height, r->ffmpeg) != row * (size_t)r->height) {
            fprintf(stderr,
                    "drape-view: --record %s: ffmpeg stopped taking frames (see %s.ffmpeg.log)\n",
                    r->path, r->path);
            return false;
        }
        return true;
    }
    char name[PATH_MAX], error[512];
    snprintf(name, sizeof name, "%s/frame_%06llu.png", r->path, (unsigned long long)r->frames);
    if (!viz_png_write(name, r->frame, r->width, r->height, row, error, sizeof error)) {
        fprintf(stderr, "drape-view: --record: %s\n", error);
        return false;
    }
    return true;
}

bool viz_record_close(viz_recorder *r)
{
    bool ok = true;
    if (r->ffmpeg) {
        const int status = pclose(r->ffmpeg);
        r->ffmpeg = NULL;
        if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "drape-view: --record %s: ffmpeg failed (see %s.ffmpeg.log)\n", r->path,
                    r->path);
            ok = false;
        }
    }
    if (ok && r->path)
        printf("drape-view: recorded %llu frames to %s\n", (unsigned long long)r->frames, r->path);
    free(r->rgb);
    free(r->frame);
    r->rgb = r->frame = NULL;
    return ok;
}
