//! mpi-ext-selftest -- a test program, not a benchmark: proves under mpirun that data moved
//! through mpi-ext arrives. Every check prints `ok <check> rank <r>`; a mismatch prints
//! `FAIL ...` and exits 1. Files go to PAW_OUTPUT_DIR. The check `bounds` deliberately
//! puts past a window's end and must be stopped by the bounds check.
use mpi::collective::SystemOperation;
use mpi::topology::Communicator;
use mpi::traits::*;
use mpi_ext::batch::Batch;
use mpi_ext::io::{File, Mode, Whence};
use mpi_ext::rma::Window;
use std::path::PathBuf;

const N: usize = 4096;

/// The byte rank `r` writes at index `i`.
fn pattern(r: i32, i: usize) -> u8 {
    ((i * 7 + r as usize * 31 + 3) % 251) as u8
}

fn block(r: i32) -> Vec<u8> {
    (0..N).map(|i| pattern(r, i)).collect()
}

fn expect(check: &str, rank: i32, got: &[u8], from: i32) {
    match got.iter().enumerate().find(|(i, &b)| b != pattern(from, *i)) {
        None => println!("ok {check} rank {rank}"),
        Some((i, b)) => {
            println!("FAIL {check} rank {rank}: byte {i} is {b}, expected {}", pattern(from, i));
            std::process::exit(1);
        }
    }
}

fn main() {
    let universe = mpi::initialize().expect("MPI init");
    // A panic on one rank must end the job, not leave the others in a fence.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        mpi::topology::SimpleCommunicator::world().abort(101);
    }));
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let (next, prev) = ((rank + 1) % size, (rank + size - 1) % size);
    let dir = PathBuf::from(std::env::var("PAW_OUTPUT_DIR").unwrap_or_else(|_| ".".into()));
    let checks: Vec<String> = std::env::args().skip(1).collect();
    let wants = |c: &str| checks.is_empty() || checks.iter().any(|a| a == c);
    let mine = block(rank);

    if wants("fence-put") {
        let win = Window::create(&world, vec![0u8; N]);
        win.fenced(|e| e.put(&mine, next, 0));
        let mut got = vec![0u8; N];
        win.load(0, &mut got);
        expect("fence-put", rank, &got, prev);
    }
    if wants("pscw-get") {
        let win = Window::create(&world, block(rank));
        let mut got = vec![0u8; N];
        let (from_prev, to_next) = (world.group().include(&[prev]), world.group().include(&[next]));
        win.exposed(&from_prev, || win.access(&to_next, |e| e.get(&mut got, next, 0)));
        drop(win);
        expect("pscw-get", rank, &got, next);
    }
    if wants("pscw-put") {
        let win = Window::create(&world, vec![0u8; N]);
        let (from_prev, to_next) = (world.group().include(&[prev]), world.group().include(&[next]));
        win.exposed(&from_prev, || win.access(&to_next, |e| e.put(&mine, next, 0)));
        let mut got = vec![0u8; N];
        win.load(0, &mut got);
        expect("pscw-put", rank, &got, prev);
    }
    if wants("passive") {
        let win = Window::create(&world, vec![0u8; N]);
        let mut got = vec![0u8; N];
        win.locked_all(|p| {
            p.rput(&mine, next, 0).wait();
            p.flush_all();
        });
        world.barrier();
        win.sync_local();
        win.load(0, &mut got);
        expect("passive-rput", rank, &got, prev);
        world.barrier();
        win.locked_all(|p| {
            p.rget(&mut got, next, 0).wait();
            p.flush_all();
        });
        world.barrier();
        expect("passive-rget", rank, &got, rank);
        // The target's own store, made visible with sync_local, is what a remote get reads.
        win.store(0, &block(rank + size));
        win.sync_local();
        world.barrier();
        let mut again = vec![0u8; N];
        win.locked_all(|p| p.rget_wait(&mut again, next, 0));
        expect("passive-store", rank, &again, next + size);
        world.barrier();
        win.locked_all(|p| p.rput_wait(&mine, next, 0));
        world.barrier();
        win.sync_local();
        win.load(0, &mut again);
        expect("passive-wait", rank, &again, prev);
    }
    if wants("accumulate") {
        let win = Window::create(&world, vec![0.0f64; 8]);
        let contribution = vec![f64::from(rank + 1); 8];
        win.fenced(|e| e.accumulate(&contribution, 0, 0, SystemOperation::sum()));
        win.locked_all(|p| p.raccumulate(&contribution, 0, 0, SystemOperation::sum()).wait());
        world.barrier();
        let mut sum = vec![0.0f64; 8];
        win.sync_local();
        win.load(0, &mut sum);
        drop(win);
        let total = f64::from(size * (size + 1)); // twice 1 + 2 + ... + size
        if rank == 0 && sum.iter().any(|&x| x != total) {
            println!("FAIL accumulate rank 0: {sum:?}, expected {total}");
            std::process::exit(1);
        }
        println!("ok accumulate rank {rank}");
    }
    if wants("batch") {
        let mut got = vec![0u8; N];
        let mut batch = Batch::with_capacity(2);
        let (to, from) = (world.process_at_rank(next), world.process_at_rank(prev));
        batch.run(|b| {
            b.irecv(&from, &mut got, 7);
            b.isend(&to, &mine, 7);
        });
        expect("batch", rank, &got, prev);
    }
    if wants("bounds") {
        let win = Window::create(&world, vec![0u8; N]);
        let too_long = vec![0u8; N + 1];
        win.fenced(|e| {
            if rank == 0 {
                e.put(&too_long, next, 0);
            }
        });
    }
    if wants("dims") {
        // MPI_Dims_create for 2..16 processes, 2 and 3 dimensions.
        let want2 = "2x1 3x1 2x2 5x1 3x2 7x1 4x2 3x3 5x2 11x1 4x3 13x1 7x2 5x3 4x4";
        let want3 = "2x1x1 3x1x1 2x2x1 5x1x1 3x2x1 7x1x1 2x2x2 3x3x1 5x2x1 11x1x1 3x2x2 \
                     13x1x1 7x2x1 5x3x1 4x2x2";
        for (n, want) in [(2, want2), (3, want3)] {
            let got: Vec<String> = (2..=16)
                .map(|p| {
                    let d = mpi_ext::topology::dims_create(p, n);
                    d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("x")
                })
                .collect();
            if got.join(" ") != want {
                println!(
                    "FAIL dims rank {rank}: {} in {n} dimensions, expected {want}",
                    got.join(" ")
                );
                std::process::exit(1);
            }
        }
        println!("ok dims rank {rank}");
    }
    if wants("io") {
        io_checks(&world, rank, size, &dir.join("mpi-ext-selftest.bin"), &mine);
    }
}

fn io_checks(world: &impl Communicator, rank: i32, size: i32, path: &std::path::Path, mine: &[u8]) {
    let fail = |what: &str, e: mpi_ext::io::IoError| -> ! {
        println!("FAIL {what} rank {rank}: {e}");
        std::process::exit(1)
    };
    let other = (rank + 1) % size;
    let at = |r: i32| (r as usize * N) as u64;
    let mut got = vec![0u8; N];

    // Explicit offsets: each rank writes its block, then reads its neighbour's.
    let f = File::open(world, path, Mode::CREATE | Mode::RDWR).unwrap_or_else(|e| fail("open", e));
    if f.write_at(at(rank), mine).unwrap_or_else(|e| fail("write_at", e)) != N {
        fail("write_at count", io_err("short write"));
    }
    f.sync().unwrap_or_else(|e| fail("sync", e));
    world.barrier();
    f.sync().unwrap_or_else(|e| fail("sync", e));
    f.read_at(at(other), &mut got).unwrap_or_else(|e| fail("read_at", e));
    expect("io-at", rank, &got, other);

    // Collective explicit offsets.
    f.write_at_all(at(rank), mine).unwrap_or_else(|e| fail("write_at_all", e));
    f.sync().unwrap_or_else(|e| fail("sync", e));
    world.barrier();
    f.sync().unwrap_or_else(|e| fail("sync", e));
    got.fill(0);
    f.read_at_all(at(other), &mut got).unwrap_or_else(|e| fail("read_at_all", e));
    expect("io-at-all", rank, &got, other);

    // Individual file pointer.
    f.seek(at(rank) as i64, Whence::Set).unwrap_or_else(|e| fail("seek", e));
    f.write(mine).unwrap_or_else(|e| fail("write", e));
    f.sync().unwrap_or_else(|e| fail("sync", e));
    world.barrier();
    f.sync().unwrap_or_else(|e| fail("sync", e));
    f.seek(at(other) as i64, Whence::Set).unwrap_or_else(|e| fail("seek", e));
    got.fill(0);
    f.read_all(&mut got).unwrap_or_else(|e| fail("read_all", e));
    expect("io-pointer", rank, &got, other);

    // Non-blocking.
    let mut nb = vec![0u8; N];
    f.nonblocking(|b| b.iwrite_at(at(rank), mine)).unwrap_or_else(|e| fail("iwrite_at", e));
    f.sync().unwrap_or_else(|e| fail("sync", e));
    world.barrier();
    f.sync().unwrap_or_else(|e| fail("sync", e));
    f.nonblocking(|b| b.iread_at(at(other), &mut nb)).unwrap_or_else(|e| fail("iread_at", e));
    expect("io-nonblocking", rank, &nb, other);
    f.close().unwrap_or_else(|e| fail("close", e));
    world.barrier();
    if rank == 0 {
        File::delete(path).unwrap_or_else(|e| fail("delete", e));
    }
    world.barrier();

    // Shared pointer in rank order: blocks land in rank order.
    let f = File::open(world, path, Mode::CREATE | Mode::RDWR).unwrap_or_else(|e| fail("open", e));
    f.write_ordered(mine).unwrap_or_else(|e| fail("write_ordered", e));
    f.sync().unwrap_or_else(|e| fail("sync", e));
    world.barrier();
    f.sync().unwrap_or_else(|e| fail("sync", e));
    got.fill(0);
    f.read_at(at(other), &mut got).unwrap_or_else(|e| fail("read_at", e));
    expect("io-ordered", rank, &got, other);
    f.seek_shared(0, Whence::Set).unwrap_or_else(|e| fail("seek_shared", e));
    got.fill(0);
    f.read_ordered(&mut got).unwrap_or_else(|e| fail("read_ordered", e));
    expect("io-read-ordered", rank, &got, rank);

    // Shared pointer, any order: every block present once after all ranks wrote.
    f.seek_shared(0, Whence::Set).unwrap_or_else(|e| fail("seek_shared", e));
    world.barrier();
    f.write_shared(mine).unwrap_or_else(|e| fail("write_shared", e));
    f.sync().unwrap_or_else(|e| fail("sync", e));
    world.barrier();
    f.sync().unwrap_or_else(|e| fail("sync", e));
    let mut all = vec![0u8; N * size as usize];
    f.read_at(0, &mut all).unwrap_or_else(|e| fail("read_at", e));
    let found = all.chunks(N).filter(|c| c[..] == block(rank)[..]).count();
    if found != 1 {
        fail("write_shared", io_err(&format!("own block found {found} times")));
    }
    println!("ok io-shared rank {rank}");
    f.close().unwrap_or_else(|e| fail("close", e));
    world.barrier();

    // Errors come back as values.
    match File::open(world, &path.with_extension("missing"), Mode::RDONLY) {
        Err(e) if e.call == "MPI_File_open" && !e.message.is_empty() => {
            println!("ok io-error rank {rank}")
        }
        Err(e) => fail("io-error", e),
        Ok(_) => fail("io-error", io_err("opening a missing file succeeded")),
    }
    if rank == 0 {
        File::delete(path).unwrap_or_else(|e| fail("delete", e));
    }
}

fn io_err(message: &str) -> mpi_ext::io::IoError {
    mpi_ext::io::IoError { call: "check", path: String::new(), message: message.into() }
}
