/* Recording what the window shows, one picture per frame: into a directory as PNGs numbered so that
 * they sort in frame order (DIR/frame_000001.png, ...), or into a video (a path ending in .mp4,
 * .mkv, .mov or .webm) by piping raw frames to ffmpeg, which must then be installed (the setup
 * script installs it). Frames are taken at the recording's start size; a window resized later is
 * cropped or padded to it. */
#ifndef VIZ_RECORD_H
#define VIZ_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct viz_recorder {
    const char *path;
    bool video;
    FILE *ffmpeg;         /* the video's pipe */
    int width, height;    /* pixels */
    uint64_t frames;      /* written */
    uint8_t *rgb, *frame; /* the framebuffer, and the frame at the recording's size */
} viz_recorder;

/* Whether `path` names a video (by its extension). */
bool viz_record_is_video(const char *path);
/* Checks before anything opens: a video needs ffmpeg on $PATH. False with a message that says what
 * to install. */
bool viz_record_check(const char *path);
/* Starts recording frames of width x height at `fps` frames per second (the video's rate). */
bool viz_record_open(viz_recorder *r, const char *path, int width, int height, int fps);
/* Adds the current framebuffer (width x height) as the next frame. */
bool viz_record_frame(viz_recorder *r, int width, int height);
/* Finishes the recording (waits for ffmpeg); false when a frame or ffmpeg failed. */
bool viz_record_close(viz_recorder *r);

#endif
