/* dgemm.c: OpenBLAS's cblas_dgemm timed in plain C, for paw-report side-by-side.
 *   dgemm MIN MAX CALLS SAMPLES   orders MIN, 2 MIN, ... up to MAX; per order one untimed
 *   call, then SAMPLES samples of CALLS calls each.
 * Prints per order the mean over the samples of the seconds per call (C = A B, N x N,
 * column-major, alpha 1, beta 0, paw's dgemm's definition). Written for paw. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 5 || atoi(argv[1]) < 1 || atoi(argv[2]) < atoi(argv[1]) || atoi(argv[3]) < 1 ||
        atoi(argv[4]) < 1) {
        fprintf(stderr, "usage: dgemm MIN MAX CALLS SAMPLES (positive integers, MIN <= MAX)\n");
        return 2;
    }
    const int lo = atoi(argv[1]), hi = atoi(argv[2]), calls = atoi(argv[3]), samples = atoi(argv[4]);
    const size_t most = (size_t)hi * hi;
    double *a = malloc(most * sizeof *a), *b = malloc(most * sizeof *b), *c = malloc(most * sizeof *c);
    if (!a || !b || !c) { fprintf(stderr, "dgemm: out of memory\n"); return 1; }
    for (size_t i = 0; i < most; i++) { a[i] = 1.0 + (double)(i % 7); b[i] = 0.5; c[i] = 0.0; }
    printf("# Size  seconds per call (mean of %d samples of %d calls)\n", samples, calls);
    for (int n = lo; n <= hi; n *= 2) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
        double total = 0.0;
        for (int s = 0; s < samples; s++) {
            double t = now();
            for (int k = 0; k < calls; k++)
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n,
                            0.0, c, n);
            total += (now() - t) / calls;
        }
        /* Row 0 of C is the sum over row 0 of A times 0.5. */
        double want = 0.0;
        for (int k = 0; k < n; k++) want += 0.5 * a[(size_t)k * n];
        if (c[0] != want) { fprintf(stderr, "dgemm: C[0][0] differs at order %d\n", n); return 1; }
        printf("%d %.9f\n", n, total / samples);
    }
    return 0;
}
