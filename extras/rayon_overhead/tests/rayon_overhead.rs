use paw_test::Launch;

const BIN: &str = env!("CARGO_BIN_EXE_rayon_overhead");

#[test]
fn every_construct_at_every_thread_count() {
    let out = Launch::direct(BIN).env("NLOOP_MAX", 200).env("NREPS", 5).run();
    out.success();
    let cores = std::thread::available_parallelism().unwrap().get();
    let mut counts: Vec<f64> = std::iter::successors(Some(1usize), |t| Some(t * 2))
        .take_while(|&t| t < cores)
        .map(|t| t as f64)
        .collect();
    counts.push(cores as f64);
    for name in ["par_for", "join", "scope", "reduction"] {
        let dat = out.dat(&format!("rayon_{name}.dat"));
        assert_eq!(dat.numbers("SIZE"), counts, "{name}\n{}", out.report());
        assert!(dat.header_value("y").unwrap().contains("[usec]"));
        // Overheads may be slightly negative within noise, but never absurd.
        for v in dat.numbers("MEDIAN") {
            assert!(v.is_finite() && v > -1.0 && v < 10_000.0, "{name}: {v} usec");
        }
        assert_eq!(dat.numbers("NREPS"), vec![5.0; counts.len()]);
    }
    assert!(out.stdout.contains("serial delay:"), "{}", out.report());
}

#[test]
fn bad_delay_is_refused() {
    let out = Launch::direct(BIN).env("OVERHEAD_DELAY_NS", "fast").run();
    out.failure("OVERHEAD_DELAY_NS=\"fast\" is not a number");
}
