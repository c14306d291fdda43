/*
 * What the frame cache's first epoch pays to write frames into tmpfs, without the loader: W
 * threads write 3.1 GB (3000 MiB) of 96 KiB "frames" into files of their own in /dev/shm with pwrite, each
 * frame first filled in a pool of POOL_MB (the shuffle buffer's blocks), in one of three modes:
 *
 *   0  fill only (the cost of the pool, no write)
 *   1  pwrite from the pool block (the frame cache before WriteStaging)
 *   2  copy the pool block into one 96 KiB block per thread, pwrite from that (WriteStaging)
 *
 * Build and run (docs/PERFORMANCE.md, "Decoded-frame cache"):
 *   cc -O2 -pthread -o /tmp/tmpfs-write-probe scripts/perf/tmpfs-write-probe.c
 *   for m in 0 1 2; do /usr/bin/time -f '%e s, user %U sys %S' /tmp/tmpfs-write-probe 600 $m 2; done
 *
 * Prints the seconds of the writing loop; /usr/bin/time adds the CPU time (the pool's first
 * touch included, the same in every mode). Removes its files.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { FRAME = 98304, MAX_THREADS = 8 };
static const size_t TOTAL = 3000UL << 20;

static size_t pool_bytes;
static int mode;
static int threads;
static char *pool;

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *writer(void *arg) {
  int id = (int)(long)arg;
  char name[64];
  snprintf(name, sizeof name, "/dev/shm/tmpfs-write-probe-%d-%d", (int)getpid(), id);
  int fd = open(name, O_CREAT | O_RDWR | O_TRUNC, 0600);
  if (fd < 0) {
    perror(name);
    exit(1);
  }
  char *staging = aligned_alloc(4096, FRAME);
  size_t slots = pool_bytes / FRAME / threads;
  char *mine = pool + (size_t)id * slots * FRAME;
  size_t k = 0;
  for (size_t at = 0; at + FRAME <= TOTAL / threads; at += FRAME, k++) {
    char *frame = mine + (k % slots) * FRAME;
    memset(frame, (int)k, FRAME); /* the decoder packing a frame into the shuffle buffer */
    const char *from = frame;
    if (mode == 2) {
      memcpy(staging, frame, FRAME);
      from = staging;
    }
    if (mode != 0 && pwrite(fd, from, FRAME, (off_t)at) != FRAME) {
      perror("pwrite");
      exit(1);
    }
  }
  close(fd);
  unlink(name);
  free(staging);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s POOL_MB MODE(0|1|2) THREADS\n", argv[0]);
    return 2;
  }
  pool_bytes = (size_t)atol(argv[1]) << 20;
  mode = atoi(argv[2]);
  threads = atoi(argv[3]);
  if (threads < 1 || threads > MAX_THREADS || pool_bytes < (size_t)FRAME * threads) {
    fprintf(stderr, "THREADS 1..%d, POOL_MB at least a frame per thread\n", MAX_THREADS);
    return 2;
  }
  pool = mmap(NULL, pool_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pool == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  memset(pool, 1, pool_bytes); /* touched before timing, as the loader's pool is after a while */
  double start = seconds_now();
  pthread_t t[MAX_THREADS];
  for (long i = 0; i < threads; i++) {
    pthread_create(&t[i], NULL, writer, (void *)i);
  }
  for (int i = 0; i < threads; i++) {
    pthread_join(t[i], NULL);
  }
  printf("pool %zu MB, mode %d, %d threads: %.3f s\n", pool_bytes >> 20, mode, threads,
         seconds_now() - start);
  return 0;
}
