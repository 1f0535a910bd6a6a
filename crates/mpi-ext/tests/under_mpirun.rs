//! mpi-ext's wrappers under mpirun: the data must arrive (see src/bin/selftest.rs).

use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_mpi-ext-selftest");

fn oks(out: &paw_test::Outcome, check: &str) -> usize {
    out.stdout.lines().filter(|l| l.starts_with(&format!("ok {check} rank "))).count()
}

#[test]
fn rma_and_batches_move_the_data() {
    for np in [2, 3, 4] {
        let out = Launch::mpi(BIN, np)
            .args(["fence-put", "pscw-get", "pscw-put", "passive", "accumulate", "batch", "dims"])
            .run();
        out.success();
        for check in [
            "fence-put",
            "pscw-get",
            "pscw-put",
            "passive-rput",
            "passive-rget",
            "passive-store",
            "passive-wait",
            "accumulate",
            "batch",
            "dims",
        ] {
            assert_eq!(oks(&out, check), np, "{check} at np {np}\n{}", out.report());
        }
        assert!(!out.stdout.contains("FAIL"), "{}", out.report());
    }
}

#[test]
fn mpi_io_moves_the_data() {
    for np in [2, 4] {
        let out = Launch::mpi(BIN, np).arg("io").run();
        out.success();
        for check in [
            "io-at",
            "io-at-all",
            "io-pointer",
            "io-nonblocking",
            "io-ordered",
            "io-read-ordered",
            "io-shared",
            "io-error",
        ] {
            assert_eq!(oks(&out, check), np, "{check} at np {np}\n{}", out.report());
        }
        assert!(out.files().is_empty(), "the test file was deleted: {:?}", out.files());
    }
}

#[test]
fn out_of_window_access_is_stopped() {
    let out = Launch::mpi(BIN, 2).arg("bounds").run();
    out.failure("exceeds rank 1's window of 4096");
}
