//! MPI-IO: files opened collectively, read and written at explicit offsets, through the
//! individual or the shared file pointer, collectively, in rank order, or without blocking.
//!
//! File errors do not abort (MPI's default error handler for files returns codes): every
//! call returns a [`Result`] whose [`IoError`] carries the call, the path and MPI's message.

use crate::{count, datatype, error_string, Plain};
use mpi::datatype::Equivalence;
use mpi::ffi;
use mpi::traits::*;
use std::cell::Cell;
use std::ffi::CString;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::os::raw::c_int;
use std::path::Path;

/// A failed MPI-IO call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IoError {
    /// The MPI function that failed.
    pub call: &'static str,
    /// The file it was working on.
    pub path: String,
    /// MPI's message for the error code.
    pub message: String,
}

impl std::fmt::Display for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on {}: {}", self.call, self.path, self.message)
    }
}

impl std::error::Error for IoError {}

/// Result of an MPI-IO call.
pub type Result<T> = std::result::Result<T, IoError>;

/// Access mode bits for [`File::open`] (MPI_MODE_*), combined with `|`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode(c_int);

impl Mode {
    /// MPI_MODE_RDONLY.
    pub const RDONLY: Mode = Mode(ffi::MPI_MODE_RDONLY as c_int);
    /// MPI_MODE_WRONLY.
    pub const WRONLY: Mode = Mode(ffi::MPI_MODE_WRONLY as c_int);
    /// MPI_MODE_RDWR.
    pub const RDWR: Mode = Mode(ffi::MPI_MODE_RDWR as c_int);
    /// MPI_MODE_CREATE.
    pub const CREATE: Mode = Mode(ffi::MPI_MODE_CREATE as c_int);
    /// MPI_MODE_EXCL.
    pub const EXCL: Mode = Mode(ffi::MPI_MODE_EXCL as c_int);
    /// MPI_MODE_DELETE_ON_CLOSE.
    pub const DELETE_ON_CLOSE: Mode = Mode(ffi::MPI_MODE_DELETE_ON_CLOSE as c_int);
    /// MPI_MODE_UNIQUE_OPEN.
    pub const UNIQUE_OPEN: Mode = Mode(ffi::MPI_MODE_UNIQUE_OPEN as c_int);
    /// MPI_MODE_APPEND.
    pub const APPEND: Mode = Mode(ffi::MPI_MODE_APPEND as c_int);
    /// MPI_MODE_SEQUENTIAL.
    pub const SEQUENTIAL: Mode = Mode(ffi::MPI_MODE_SEQUENTIAL as c_int);
}

impl std::ops::BitOr for Mode {
    type Output = Mode;
    fn bitor(self, rhs: Mode) -> Mode {
        Mode(self.0 | rhs.0)
    }
}

/// Where [`File::seek`] and [`File::seek_shared`] count from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whence {
    /// MPI_SEEK_SET: from the start of the view.
    Set,
    /// MPI_SEEK_CUR: from the current position.
    Current,
    /// MPI_SEEK_END: from the end of the file.
    End,
}

impl Whence {
    fn raw(self) -> c_int {
        (match self {
            Whence::Set => ffi::MPI_SEEK_SET,
            Whence::Current => ffi::MPI_SEEK_CUR,
            Whence::End => ffi::MPI_SEEK_END,
        }) as c_int
    }
}

/// An MPI_Info object of key/value hints (e.g. ROMIO's `cb_buffer_size`); freed on drop.
pub struct Info {
    raw: ffi::MPI_Info,
}

impl std::fmt::Debug for Info {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Info")
    }
}

impl Info {
    /// An empty info object.
    pub fn new() -> Info {
        // SAFETY: reading an extern static handle constant that MPI initialises at load.
        let mut raw = unsafe { ffi::RSMPI_INFO_NULL };
        // SAFETY: `raw` is a valid out-parameter.
        unsafe { ffi::MPI_Info_create(&mut raw) };
        Info { raw }
    }

    /// Sets `key` to `value`. Panics if either contains a NUL byte.
    pub fn set(&mut self, key: &str, value: &str) {
        let (k, v) = (cstring(key), cstring(value));
        // SAFETY: both strings are NUL-terminated and outlive the call, which copies them.
        unsafe { ffi::MPI_Info_set(self.raw, k.as_ptr(), v.as_ptr()) };
    }
}

impl Default for Info {
    fn default() -> Self {
        Info::new()
    }
}

impl Drop for Info {
    fn drop(&mut self) {
        // SAFETY: the handle came from MPI_Info_create and is freed once.
        unsafe { ffi::MPI_Info_free(&mut self.raw) };
    }
}

fn cstring(s: &str) -> CString {
    CString::new(s).expect("string with a NUL byte passed to MPI")
}

/// An open MPI file (MPI_File_open); closed on drop or by [`File::close`].
///
/// Closing is collective: every rank must close (or drop) its handle, in the same order.
pub struct File {
    raw: ffi::MPI_File,
    path: String,
}

impl std::fmt::Debug for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "File({})", self.path)
    }
}

/// Turns an MPI return code into a Result.
fn check(call: &'static str, path: &str, rc: c_int) -> Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(IoError { call, path: path.to_string(), message: error_string(rc) })
    }
}

/// Elements of `T` a completed status says were transferred.
fn transferred<T: Equivalence>(status: &ffi::MPI_Status) -> usize {
    let mut n: c_int = 0;
    // SAFETY: `status` was filled by the completed call; `n` is a valid out-parameter.
    unsafe { ffi::MPI_Get_count(status, datatype::<T>(), &mut n) };
    n.max(0) as usize
}

impl File {
    /// Opens `path` on every rank of `comm` (collective) with `mode`.
    pub fn open<C: Communicator>(comm: &C, path: &Path, mode: Mode) -> Result<File> {
        Self::open_with_info(comm, path, mode, None)
    }

    /// Opens `path` with hints in `info` (collective).
    pub fn open_with_info<C: Communicator>(
        comm: &C,
        path: &Path,
        mode: Mode,
        info: Option<&Info>,
    ) -> Result<File> {
        let name = path.to_string_lossy().into_owned();
        let c = cstring(&name);
        // SAFETY: reading extern static handle constants that MPI initialises at load.
        let (mut raw, null_info) = unsafe { (ffi::RSMPI_FILE_NULL, ffi::RSMPI_INFO_NULL) };
        let info = info.map_or(null_info, |i| i.raw);
        // SAFETY: `c` is NUL-terminated and outlives the call; `raw` is a valid out-parameter.
        let rc = unsafe { ffi::MPI_File_open(comm.as_raw(), c.as_ptr(), mode.0, info, &mut raw) };
        check("MPI_File_open", &name, rc)?;
        Ok(File { raw, path: name })
    }

    /// Deletes `path` (MPI_File_delete).
    pub fn delete(path: &Path) -> Result<()> {
        let name = path.to_string_lossy().into_owned();
        let c = cstring(&name);
        // SAFETY: `c` is NUL-terminated and outlives the call.
        let rc = unsafe { ffi::MPI_File_delete(c.as_ptr(), ffi::RSMPI_INFO_NULL) };
        check("MPI_File_delete", &name, rc)
    }

    /// Closes the file (collective), reporting an error that drop would ignore.
    pub fn close(mut self) -> Result<()> {
        let rc = self.close_raw();
        check("MPI_File_close", &self.path, rc)
    }

    fn close_raw(&mut self) -> c_int {
        // SAFETY: reading an extern static handle constant.
        if self.raw == unsafe { ffi::RSMPI_FILE_NULL } {
            return 0;
        }
        // SAFETY: the handle is open (checked above); MPI sets it to MPI_FILE_NULL.
        let rc = unsafe { ffi::MPI_File_close(&mut self.raw) };
        // Never close twice, even after a failed close (drop would otherwise retry alone).
        // SAFETY: reading an extern static handle constant.
        self.raw = unsafe { ffi::RSMPI_FILE_NULL };
        rc
    }

    /// The path the file was opened with.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// MPI_File_set_view with displacement `disp` (bytes), elementary type `etype`, file
    /// type `filetype` and the "native" representation (collective). Offsets of later
    /// calls count `etype` elements.
    pub fn set_view<E, F>(&self, disp: u64, etype: &E, filetype: &F) -> Result<()>
    where
        E: AsRaw<Raw = ffi::MPI_Datatype>,
        F: AsRaw<Raw = ffi::MPI_Datatype>,
    {
        let native = cstring("native");
        // SAFETY: handles are live, `native` is NUL-terminated and outlives the call.
        let rc = unsafe {
            ffi::MPI_File_set_view(
                self.raw,
                disp as ffi::MPI_Offset,
                etype.as_raw(),
                filetype.as_raw(),
                native.as_ptr(),
                ffi::RSMPI_INFO_NULL,
            )
        };
        check("MPI_File_set_view", &self.path, rc)
    }

    /// A view of disjoint contiguous blocks (collective): from byte `disp` on, this rank
    /// sees `block` bytes out of every `stride` (MPI_Type_contiguous of `block` MPI_BYTE,
    /// resized to an extent of `stride`, as the file type; MPI_BYTE as the etype).
    pub fn set_block_view(&self, disp: u64, block: usize, stride: usize) -> Result<()> {
        self.set_block_view_with(disp, block, stride, None)
    }

    /// [`File::set_block_view`] with hints (collective).
    pub fn set_block_view_with(
        &self,
        disp: u64,
        block: usize,
        stride: usize,
        info: Option<&Info>,
    ) -> Result<()> {
        let byte = datatype::<u8>();
        // SAFETY: reading an extern static handle constant.
        let (mut contiguous, mut resized) =
            unsafe { (ffi::RSMPI_DATATYPE_NULL, ffi::RSMPI_DATATYPE_NULL) };
        let native = cstring("native");
        // SAFETY: the out-parameters are valid; both types are committed before use and
        // freed after MPI_File_set_view, which keeps its own reference to the file type.
        let rc = unsafe {
            ffi::MPI_Type_contiguous(count(block), byte, &mut contiguous);
            ffi::MPI_Type_create_resized(contiguous, 0, stride as ffi::MPI_Aint, &mut resized);
            ffi::MPI_Type_commit(&mut resized);
            let rc = ffi::MPI_File_set_view(
                self.raw,
                disp as ffi::MPI_Offset,
                byte,
                resized,
                native.as_ptr(),
                info.map_or(ffi::RSMPI_INFO_NULL, |i| i.raw),
            );
            ffi::MPI_Type_free(&mut resized);
            ffi::MPI_Type_free(&mut contiguous);
            rc
        };
        check("MPI_File_set_view", &self.path, rc)
    }

    /// A byte view from byte `disp` on (MPI_BYTE as etype and file type), with hints
    /// (collective).
    pub fn set_byte_view(&self, disp: u64, info: Option<&Info>) -> Result<()> {
        let byte = datatype::<u8>();
        let native = cstring("native");
        // SAFETY: handles are live, `native` is NUL-terminated and outlives the call.
        let rc = unsafe {
            let info = info.map_or(ffi::RSMPI_INFO_NULL, |i| i.raw);
            ffi::MPI_File_set_view(
                self.raw,
                disp as ffi::MPI_Offset,
                byte,
                byte,
                native.as_ptr(),
                info,
            )
        };
        check("MPI_File_set_view", &self.path, rc)
    }

    /// Sets hints on the open file (MPI_File_set_info, collective).
    pub fn set_info(&self, info: &Info) -> Result<()> {
        // SAFETY: both handles are live.
        let rc = unsafe { ffi::MPI_File_set_info(self.raw, info.raw) };
        check("MPI_File_set_info", &self.path, rc)
    }

    /// Runs the split collective `op` (collective): its `_begin` call, then `between`,
    /// then its `_end` call; the buffer is borrowed across both.
    pub fn split_collective<R>(&self, op: Split<'_>, between: impl FnOnce() -> R) -> Result<R> {
        let byte = datatype::<u8>();
        let raw = self.raw;
        // SAFETY: the buffer is borrowed by `op` until the end call below returns; counts
        // are its length in bytes.
        let (name, rc) = unsafe {
            match &op {
                Split::WriteAll(b) => (
                    "MPI_File_write_all_begin",
                    ffi::MPI_File_write_all_begin(raw, b.as_ptr() as *mut _, count(b.len()), byte),
                ),
                Split::ReadAll(b) => (
                    "MPI_File_read_all_begin",
                    ffi::MPI_File_read_all_begin(raw, b.as_ptr() as *mut _, count(b.len()), byte),
                ),
                Split::WriteAtAll(at, b) => (
                    "MPI_File_write_at_all_begin",
                    ffi::MPI_File_write_at_all_begin(
                        raw,
                        *at as ffi::MPI_Offset,
                        b.as_ptr() as *mut _,
                        count(b.len()),
                        byte,
                    ),
                ),
                Split::ReadAtAll(at, b) => (
                    "MPI_File_read_at_all_begin",
                    ffi::MPI_File_read_at_all_begin(
                        raw,
                        *at as ffi::MPI_Offset,
                        b.as_ptr() as *mut _,
                        count(b.len()),
                        byte,
                    ),
                ),
                Split::WriteOrdered(b) => (
                    "MPI_File_write_ordered_begin",
                    ffi::MPI_File_write_ordered_begin(
                        raw,
                        b.as_ptr() as *mut _,
                        count(b.len()),
                        byte,
                    ),
                ),
                Split::ReadOrdered(b) => (
                    "MPI_File_read_ordered_begin",
                    ffi::MPI_File_read_ordered_begin(
                        raw,
                        b.as_ptr() as *mut _,
                        count(b.len()),
                        byte,
                    ),
                ),
            }
        };
        check(name, &self.path, rc)?;
        let result = between();
        let mut status = MaybeUninit::<ffi::MPI_Status>::uninit();
        let st = status.as_mut_ptr();
        // SAFETY: ends the call begun above on the same buffer; `st` is a valid
        // out-parameter.
        let (name, rc) = unsafe {
            match op {
                Split::WriteAll(b) => (
                    "MPI_File_write_all_end",
                    ffi::MPI_File_write_all_end(raw, b.as_ptr() as *mut _, st),
                ),
                Split::ReadAll(b) => (
                    "MPI_File_read_all_end",
                    ffi::MPI_File_read_all_end(raw, b.as_mut_ptr().cast(), st),
                ),
                Split::WriteAtAll(_, b) => (
                    "MPI_File_write_at_all_end",
                    ffi::MPI_File_write_at_all_end(raw, b.as_ptr() as *mut _, st),
                ),
                Split::ReadAtAll(_, b) => (
                    "MPI_File_read_at_all_end",
                    ffi::MPI_File_read_at_all_end(raw, b.as_mut_ptr().cast(), st),
                ),
                Split::WriteOrdered(b) => (
                    "MPI_File_write_ordered_end",
                    ffi::MPI_File_write_ordered_end(raw, b.as_ptr() as *mut _, st),
                ),
                Split::ReadOrdered(b) => (
                    "MPI_File_read_ordered_end",
                    ffi::MPI_File_read_ordered_end(raw, b.as_mut_ptr().cast(), st),
                ),
            }
        };
        check(name, &self.path, rc)?;
        Ok(result)
    }

    /// File size in bytes.
    pub fn size(&self) -> Result<u64> {
        let mut size: ffi::MPI_Offset = 0;
        // SAFETY: `size` is a valid out-parameter.
        let rc = unsafe { ffi::MPI_File_get_size(self.raw, &mut size) };
        check("MPI_File_get_size", &self.path, rc)?;
        Ok(size.max(0) as u64)
    }

    /// Truncates or extends the file to `bytes` (collective).
    pub fn set_size(&self, bytes: u64) -> Result<()> {
        // SAFETY: the handle is live.
        let rc = unsafe { ffi::MPI_File_set_size(self.raw, bytes as ffi::MPI_Offset) };
        check("MPI_File_set_size", &self.path, rc)
    }

    /// Flushes written data to the storage device (MPI_File_sync, collective).
    pub fn sync(&self) -> Result<()> {
        // SAFETY: the handle is live.
        let rc = unsafe { ffi::MPI_File_sync(self.raw) };
        check("MPI_File_sync", &self.path, rc)
    }

    /// Moves the individual file pointer.
    pub fn seek(&self, offset: i64, whence: Whence) -> Result<()> {
        // SAFETY: the handle is live.
        let rc = unsafe { ffi::MPI_File_seek(self.raw, offset as ffi::MPI_Offset, whence.raw()) };
        check("MPI_File_seek", &self.path, rc)
    }

    /// Moves the shared file pointer (collective).
    pub fn seek_shared(&self, offset: i64, whence: Whence) -> Result<()> {
        // SAFETY: the handle is live.
        let rc =
            unsafe { ffi::MPI_File_seek_shared(self.raw, offset as ffi::MPI_Offset, whence.raw()) };
        check("MPI_File_seek_shared", &self.path, rc)
    }

    /// Runs non-blocking reads and writes posted by `post`, then waits for all of them.
    /// Buffers live for the batch's lifetime parameter, beyond the wait.
    pub fn nonblocking<'b, R>(&self, post: impl FnOnce(&mut IoBatch<'_, 'b>) -> R) -> Result<R> {
        let mut batch =
            IoBatch { file: self, requests: Vec::new(), error: None, _buffers: PhantomData };
        let result = post(&mut batch);
        let rc = batch.wait_all();
        if let Some(e) = batch.error.take() {
            return Err(e);
        }
        check("MPI_Waitall", &self.path, rc)?;
        Ok(result)
    }
}

impl Drop for File {
    fn drop(&mut self) {
        self.close_raw();
    }
}

/// Blocking transfers at an explicit offset (in etype units of the view).
macro_rules! at_offset {
    ($(#[$doc:meta] $name:ident, $call:ident, write;)*) => {$(
        #[$doc]
        pub fn $name<T: Equivalence>(&self, offset: u64, buf: &[T]) -> Result<usize> {
            let mut status = MaybeUninit::<ffi::MPI_Status>::uninit();
            // SAFETY: `buf` is valid for its length for the whole (blocking) call; `status`
            // is a valid out-parameter, read only after success.
            let rc = unsafe {
                ffi::$call(self.raw, offset as ffi::MPI_Offset, buf.as_ptr() as *mut _,
                    count(buf.len()), datatype::<T>(), status.as_mut_ptr())
            };
            check(stringify!($call), &self.path, rc)?;
            // SAFETY: the call succeeded, so MPI filled `status`.
            Ok(transferred::<T>(unsafe { status.assume_init_ref() }))
        }
    )*};
    ($(#[$doc:meta] $name:ident, $call:ident, read;)*) => {$(
        #[$doc]
        pub fn $name<T: Plain>(&self, offset: u64, buf: &mut [T]) -> Result<usize> {
            let mut status = MaybeUninit::<ffi::MPI_Status>::uninit();
            // SAFETY: `buf` is borrowed exclusively for the whole (blocking) call; `status`
            // is a valid out-parameter, read only after success.
            let rc = unsafe {
                ffi::$call(self.raw, offset as ffi::MPI_Offset, buf.as_mut_ptr().cast(),
                    count(buf.len()), datatype::<T>(), status.as_mut_ptr())
            };
            check(stringify!($call), &self.path, rc)?;
            // SAFETY: the call succeeded, so MPI filled `status`.
            Ok(transferred::<T>(unsafe { status.assume_init_ref() }))
        }
    )*};
}

/// Blocking transfers at a file pointer (individual or shared).
macro_rules! at_pointer {
    ($(#[$doc:meta] $name:ident, $call:ident, write;)*) => {$(
        #[$doc]
        pub fn $name<T: Equivalence>(&self, buf: &[T]) -> Result<usize> {
            let mut status = MaybeUninit::<ffi::MPI_Status>::uninit();
            // SAFETY: as for the explicit-offset writes.
            let rc = unsafe {
                ffi::$call(self.raw, buf.as_ptr() as *mut _, count(buf.len()),
                    datatype::<T>(), status.as_mut_ptr())
            };
            check(stringify!($call), &self.path, rc)?;
            // SAFETY: the call succeeded, so MPI filled `status`.
            Ok(transferred::<T>(unsafe { status.assume_init_ref() }))
        }
    )*};
    ($(#[$doc:meta] $name:ident, $call:ident, read;)*) => {$(
        #[$doc]
        pub fn $name<T: Plain>(&self, buf: &mut [T]) -> Result<usize> {
            let mut status = MaybeUninit::<ffi::MPI_Status>::uninit();
            // SAFETY: as for the explicit-offset reads.
            let rc = unsafe {
                ffi::$call(self.raw, buf.as_mut_ptr().cast(), count(buf.len()),
                    datatype::<T>(), status.as_mut_ptr())
            };
            check(stringify!($call), &self.path, rc)?;
            // SAFETY: the call succeeded, so MPI filled `status`.
            Ok(transferred::<T>(unsafe { status.assume_init_ref() }))
        }
    )*};
}

impl File {
    at_offset! {
        /// MPI_File_write_at: returns the elements written.
        write_at, MPI_File_write_at, write;
        /// MPI_File_write_at_all (collective).
        write_at_all, MPI_File_write_at_all, write;
    }
    at_offset! {
        /// MPI_File_read_at: returns the elements read.
        read_at, MPI_File_read_at, read;
        /// MPI_File_read_at_all (collective).
        read_at_all, MPI_File_read_at_all, read;
    }
    at_pointer! {
        /// MPI_File_write at the individual file pointer.
        write, MPI_File_write, write;
        /// MPI_File_write_all at the individual file pointer (collective).
        write_all, MPI_File_write_all, write;
        /// MPI_File_write_shared at the shared file pointer.
        write_shared, MPI_File_write_shared, write;
        /// MPI_File_write_ordered: at the shared pointer, in rank order (collective).
        write_ordered, MPI_File_write_ordered, write;
    }
    at_pointer! {
        /// MPI_File_read at the individual file pointer.
        read, MPI_File_read, read;
        /// MPI_File_read_all at the individual file pointer (collective).
        read_all, MPI_File_read_all, read;
        /// MPI_File_read_shared at the shared file pointer.
        read_shared, MPI_File_read_shared, read;
        /// MPI_File_read_ordered: at the shared pointer, in rank order (collective).
        read_ordered, MPI_File_read_ordered, read;
    }
}

/// A split collective data access ([`File::split_collective`]) on bytes.
#[derive(Debug)]
pub enum Split<'b> {
    /// MPI_File_write_all_begin/_end at the individual pointer.
    WriteAll(&'b [u8]),
    /// MPI_File_read_all_begin/_end at the individual pointer.
    ReadAll(&'b mut [u8]),
    /// MPI_File_write_at_all_begin/_end at an explicit offset.
    WriteAtAll(u64, &'b [u8]),
    /// MPI_File_read_at_all_begin/_end at an explicit offset.
    ReadAtAll(u64, &'b mut [u8]),
    /// MPI_File_write_ordered_begin/_end at the shared pointer, in rank order.
    WriteOrdered(&'b [u8]),
    /// MPI_File_read_ordered_begin/_end at the shared pointer, in rank order.
    ReadOrdered(&'b mut [u8]),
}

/// Non-blocking operations on one file, all completed when [`File::nonblocking`] returns.
pub struct IoBatch<'f, 'b> {
    file: &'f File,
    requests: Vec<ffi::MPI_Request>,
    error: Option<IoError>,
    // Invariant in 'b: buffers with a shorter life cannot be posted.
    _buffers: PhantomData<Cell<&'b ()>>,
}

impl std::fmt::Debug for IoBatch<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IoBatch({}, {} requests)", self.file.path, self.requests.len())
    }
}

impl IoBatch<'_, '_> {
    fn posted(&mut self, call: &'static str, rc: c_int, req: ffi::MPI_Request) {
        if rc == 0 {
            self.requests.push(req);
        } else if self.error.is_none() {
            self.error = check(call, &self.file.path, rc).err();
        }
    }

    fn wait_all(&mut self) -> c_int {
        if self.requests.is_empty() {
            return 0;
        }
        // SAFETY: the array holds active requests posted by this batch, each waited once.
        let rc = unsafe {
            ffi::MPI_Waitall(
                count(self.requests.len()),
                self.requests.as_mut_ptr(),
                ffi::RSMPI_STATUSES_IGNORE,
            )
        };
        self.requests.clear();
        rc
    }
}

impl Drop for IoBatch<'_, '_> {
    fn drop(&mut self) {
        // Completes everything even if the posting closure panicked.
        self.wait_all();
    }
}

/// Non-blocking transfers at an explicit offset.
macro_rules! nb_offset {
    ($(#[$doc:meta] $name:ident, $call:ident, $buf:ty, $ptr:ident;)*) => {$(
        #[$doc]
        pub fn $name<T: Plain>(&mut self, offset: u64, buf: $buf) {
            // SAFETY: reading an extern static handle constant.
            let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
            // SAFETY: `buf` is borrowed for 'b, beyond the Waitall that completes `req`.
            let rc = unsafe {
                ffi::$call(self.file.raw, offset as ffi::MPI_Offset, buf.$ptr() as *mut _,
                    count(buf.len()), datatype::<T>(), &mut req)
            };
            self.posted(stringify!($call), rc, req);
        }
    )*};
}

/// Non-blocking transfers at a file pointer.
macro_rules! nb_pointer {
    ($(#[$doc:meta] $name:ident, $call:ident, $buf:ty, $ptr:ident;)*) => {$(
        #[$doc]
        pub fn $name<T: Plain>(&mut self, buf: $buf) {
            // SAFETY: reading an extern static handle constant.
            let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
            // SAFETY: `buf` is borrowed for 'b, beyond the Waitall that completes `req`.
            let rc = unsafe {
                ffi::$call(self.file.raw, buf.$ptr() as *mut _, count(buf.len()),
                    datatype::<T>(), &mut req)
            };
            self.posted(stringify!($call), rc, req);
        }
    )*};
}

impl<'b> IoBatch<'_, 'b> {
    nb_offset! {
        /// MPI_File_iwrite_at.
        iwrite_at, MPI_File_iwrite_at, &'b [T], as_ptr;
        /// MPI_File_iread_at.
        iread_at, MPI_File_iread_at, &'b mut [T], as_mut_ptr;
    }
    nb_pointer! {
        /// MPI_File_iwrite at the individual file pointer.
        iwrite, MPI_File_iwrite, &'b [T], as_ptr;
        /// MPI_File_iread at the individual file pointer.
        iread, MPI_File_iread, &'b mut [T], as_mut_ptr;
        /// MPI_File_iwrite_shared at the shared file pointer.
        iwrite_shared, MPI_File_iwrite_shared, &'b [T], as_ptr;
        /// MPI_File_iread_shared at the shared file pointer.
        iread_shared, MPI_File_iread_shared, &'b mut [T], as_mut_ptr;
    }
}
