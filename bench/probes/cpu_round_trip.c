/* How far apart are two CPUs? The round trip of a cache line between two
 * threads pinned to them: each waits for the other's store to one atomic and
 * answers with its own.
 *
 * Build and run (Linux):
 *   gcc -O2 -pthread -o cpu_round_trip cpu_round_trip.c
 *   ./cpu_round_trip            # CPUs 0 and 1, 200000 round trips
 *   ./cpu_round_trip 0 1 50000
 *
 * On this project's 2-vCPU host (Zen 4 VM, 2026-12-07) it printed 42-46 ns in
 * one placement of the vCPUs and 375-440 ns in the other, switching every few
 * seconds to minutes; see bench/RESULTS.md ("Two speeds of this host's vCPUs").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Atomic unsigned long flag;
static unsigned long rounds = 200000;
static int cpus[2] = {0, 1};

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        perror("sched_setaffinity");
        exit(1);
    }
}

static void *answer(void *arg) {
    (void)arg;
    pin(cpus[1]);
    for (unsigned long i = 0; i < rounds; i++) {
        while (atomic_load_explicit(&flag, memory_order_acquire) != 2 * i + 1) {
        }
        atomic_store_explicit(&flag, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc > 2) {
        cpus[0] = atoi(argv[1]);
        cpus[1] = atoi(argv[2]);
    }
    if (argc > 3) rounds = strtoul(argv[3], NULL, 10);
    pthread_t other;
    pthread_create(&other, NULL, answer, NULL);
    pin(cpus[0]);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned long i = 0; i < rounds; i++) {
        atomic_store_explicit(&flag, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&flag, memory_order_acquire) != 2 * i + 2) {
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_join(other, NULL);
    double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    printf("CPUs %d and %d: %.0f ns a round trip\n", cpus[0], cpus[1], ns / rounds);
    return 0;
}
