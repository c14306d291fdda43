/*
 * What reading frames back from a tmpfs file costs, the way the frame cache's later epochs could:
 * writes 3.1 GB (3000 MiB) of 96 KiB frames into /dev/shm, then reads them all twice, each frame copied into
 * one 96 KiB buffer, in one of three modes:
 *
 *   mmap      through a shared mapping of the file, mapped anew for each pass (what a process's
 *             first epoch reading a cache file does: the frame cache maps a file once and keeps
 *             it, so only the first pass of a process pays the mapping's page faults)
 *   populate  the same after madvise(MADV_POPULATE_READ) of the whole mapping
 *   pread     pread into the buffer (the kernel copies through its own mapping of the pages)
 *
 * Build and run (docs/CHANGELOG.md, "Decoded-frame cache"):
 *   cc -O2 -o /tmp/tmpfs-read-probe scripts/perf/tmpfs-read-probe.c
 *   for m in mmap populate pread; do /usr/bin/time -f '%e s, user %U sys %S' /tmp/tmpfs-read-probe $m; done
 *
 * Removes its file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

enum { FRAME = 98304 };
static const size_t TOTAL = 3000UL << 20;

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "mmap") && strcmp(argv[1], "populate") &&
                    strcmp(argv[1], "pread"))) {
    fprintf(stderr, "usage: %s mmap|populate|pread\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  char name[64];
  snprintf(name, sizeof name, "/dev/shm/tmpfs-read-probe-%d", (int)getpid());
  int fd = open(name, O_CREAT | O_RDWR | O_TRUNC, 0600);
  if (fd < 0) {
    perror(name);
    return 1;
  }
  char *frame = aligned_alloc(4096, FRAME);
  memset(frame, 3, FRAME);
  for (size_t at = 0; at + FRAME <= TOTAL; at += FRAME) {
    if (pwrite(fd, frame, FRAME, (off_t)at) != FRAME) {
      perror("pwrite");
      return 1;
    }
  }
  unsigned long sum = 0; /* keeps the copies from being optimised away */
  for (int pass = 0; pass < 2; pass++) {
    double start = seconds_now();
    double populated = start;
    if (strcmp(mode, "pread") == 0) {
      for (size_t at = 0; at + FRAME <= TOTAL; at += FRAME) {
        if (pread(fd, frame, FRAME, (off_t)at) != FRAME) {
          perror("pread");
          return 1;
        }
        sum += (unsigned char)frame[7];
      }
    } else {
      char *map = mmap(NULL, TOTAL, PROT_READ, MAP_SHARED, fd, 0);
      if (map == MAP_FAILED) {
        perror("mmap");
        return 1;
      }
      if (strcmp(mode, "populate") == 0 && madvise(map, TOTAL, MADV_POPULATE_READ) != 0) {
        perror("madvise");
      }
      populated = seconds_now();
      for (size_t at = 0; at + FRAME <= TOTAL; at += FRAME) {
        memcpy(frame, map + at, FRAME);
        sum += (unsigned char)frame[7];
      }
      munmap(map, TOTAL);
    }
    printf("%s pass %d: %.3f s (populate %.3f s)\n", mode, pass, seconds_now() - start,
           populated - start);
  }
  close(fd);
  unlink(name);
  return sum == 0; /* every frame byte is 3: never 0 */
}
