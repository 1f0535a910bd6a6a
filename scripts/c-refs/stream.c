/* stream.c: the four STREAM kernels in plain C with OpenMP, for paw-report side-by-side.
 *   stream N PASSES   arrays of N doubles; PASSES timed passes after one untimed pass.
 * Prints STREAM's table (Function, Best Rate MB/s, Avg/Min/Max time; MB = 10^6 B) and
 * checks every element at the end. Written for paw; it follows STREAM's definitions. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3 || atol(argv[1]) < 1 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: stream N PASSES (both positive integers)\n");
        return 2;
    }
    const long n = atol(argv[1]);
    const int passes = atoi(argv[2]);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) { fprintf(stderr, "stream: out of memory\n"); return 1; }
    const double s = 3.0;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.0; }
    const char *name[4] = {"Copy:", "Scale:", "Add:", "Triad:"};
    const double bytes[4] = {16.0 * n, 16.0 * n, 24.0 * n, 24.0 * n};
    double sum[4] = {0}, min[4] = {1e30, 1e30, 1e30, 1e30}, max[4] = {0};
    for (int p = 0; p <= passes; p++) {
        double t[4];
        t[0] = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i];
        t[0] = omp_get_wtime() - t[0];
        t[1] = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) b[i] = s * c[i];
        t[1] = omp_get_wtime() - t[1];
        t[2] = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
        t[2] = omp_get_wtime() - t[2];
        t[3] = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        t[3] = omp_get_wtime() - t[3];
        for (int k = 0; p > 0 && k < 4; k++) { /* pass 0 is the warm-up */
            sum[k] += t[k];
            if (t[k] < min[k]) min[k] = t[k];
            if (t[k] > max[k]) max[k] = t[k];
        }
    }
    /* Each pass maps (a, b, c) to (a', b', c') with fixed factors: replay them. */
    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int p = 0; p <= passes; p++) { ec = ea; eb = s * ec; ec = ea + eb; ea = eb + s * ec; }
    for (long i = 0; i < n; i++) {
        if (a[i] != ea || b[i] != eb || c[i] != ec) {
            fprintf(stderr, "stream: element %ld differs from the expected values\n", i);
            return 1;
        }
    }
    printf("Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    for (int k = 0; k < 4; k++)
        printf("%-12s%11.1f  %11.6f  %11.6f  %11.6f\n", name[k], bytes[k] / min[k] / 1e6,
               sum[k] / passes, min[k], max[k]);
    return 0;
}
