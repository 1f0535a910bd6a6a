"""paw's qualification steps as ReFrame tests (ReFrame 4.10).

Each test runs one paw binary into its stage directory, then `paw-report summary --csv
--reframe` turns what it wrote into figures.csv: every headline figure paw reports for it,
with its unit. Those figures are the test's performance variables, named as paw names them
in one word (`p2p_send_bandwidth_at_4194304_B`, unit `MiB/s`); sanity is paw's exit status,
its files and the data check (PAW_CHECK=1, IMB's -check): no CHECK cell `fail`, no defects.

References come from `paw-report reference --reframe SYSTEM:PARTITION RUN...`: a YAML file
in ReFrame's own form, one entry per test class (`paw_` and the binary, `-` as `_`). Give it
with `-S paw_reference=FILE` (or PAW_REFERENCE=FILE); a test then fails when the file is
missing, holds no entry for it, or lacks one of its figures. Without a reference the tests
report their figures and pass on sanity alone.

Variables (`-S name=value`, or the environment variable in brackets):
  paw_bin        directory of paw's binaries and paw-report [PAW_BIN]; default: the PATH
  paw_reference  the YAML reference file [PAW_REFERENCE]
  quick          1: tiny settings, a smoke run of the library itself
  tasks          tasks of the MPI tests (default 2; per test: -S paw_col_ardc.tasks=64)

Partitions whose launcher starts MPI jobs (mpirun, srun ...) declare the feature `mpi`; the
node tests (stream, blas_dgemm_single) also run on any other. Launcher options go into the
partition's `extras: {'launcher_opts': [...]}`. doc/reframe.md has a site's configuration.
"""

import csv
import glob
import os
import re

import reframe as rfm
import reframe.utility.sanity as sn
import yaml
from reframe.core.builtins import run_after, run_before, sanity_function, variable


class PawTest(rfm.RunOnlyRegressionTest, pin_prefix=True):
    """One paw binary, its figures as performance variables."""

    valid_prog_environs = ['*']
    sourcesdir = None
    paw_bin = variable(str, value=os.environ.get('PAW_BIN', ''))
    paw_reference = variable(str, value=os.environ.get('PAW_REFERENCE', ''))
    quick = variable(bool, value=False)
    tasks = variable(int, value=2)
    time_limit = '30m'

    #: the paw binary (set by each test; the class is named `paw_` and it)
    binary = ''
    #: runs on one task, with no MPI (node tests)
    node = False
    #: its arguments, and those of a quick run
    args = []
    quick_args = None
    #: its environment, and what a quick run adds
    env = {}
    quick_env = {}

    @run_after('init')
    def set_up(self):
        expected = 'paw_' + re.sub(r'[^A-Za-z0-9]', '_', self.binary)
        if type(self).__name__ != expected:
            raise ValueError(f'{type(self).__name__}: a test of {self.binary} is named {expected}')
        # What ReFrame's report and failure listing show as the test's description.
        self.descr = self.descr or ' '.join((type(self).__doc__ or '').split())
        self.valid_systems = ['*'] if self.node else ['+mpi']
        self.num_tasks = 1 if self.node else self.tasks
        self.executable = os.path.join(self.paw_bin, self.binary)
        args = self.quick_args if self.quick and self.quick_args is not None else self.args
        self.executable_opts = list(args)
        self.env_vars = {'PAW_OUTPUT_DIR': '.', 'PAW_CHECK': '1', **self.env}
        if self.quick:
            self.env_vars.update(self.quick_env)
        report = os.path.join(self.paw_bin, 'paw-report')
        # The job's exit status stays the benchmark's; the figures are read either way.
        self.postrun_cmds = [
            'paw_status=$?',
            f'{report} summary --csv --reframe . > figures.csv',
            'echo "paw exit status: $paw_status"',
            'exit $paw_status',
        ]
        self.keep_files = ['figures.csv']

    @run_before('run')
    def add_launcher_options(self):
        self.job.launcher.options += self.current_partition.extras.get('launcher_opts', [])

    @run_after('setup')
    def load_reference(self):
        if not self.paw_reference:
            return
        path = os.path.join(self.prefix, self.paw_reference)
        with open(path) as f:
            data = yaml.safe_load(f) or {}
        mine = data.get(type(self).__name__)
        if not mine:
            raise ValueError(f'{path} holds no reference for {type(self).__name__}')
        self.reference = {
            system: {name: tuple(entry) for name, entry in figures.items()}
            for system, figures in mine.items()
        }
        self.require_reference = True

    def figures(self):
        """The rows of figures.csv: section, figure, value, unit, ci_lo, ci_hi, file."""
        with open(os.path.join(self.stagedir, 'figures.csv')) as f:
            return list(csv.DictReader(f))

    @sn.deferrable
    def checks_passed(self):
        """No CHECK cell `fail` and no IMB defects in any CSV file the run wrote."""
        for path in glob.glob(os.path.join(self.stagedir, '*.csv')):
            with open(path) as f:
                for row in csv.DictReader(f):
                    if row.get('check') == 'fail' or row.get('defects', '0') not in ('0', ''):
                        return sn.assert_true(False, msg=f'data check failed in {path}')
        return True

    @sanity_function
    def validate(self):
        return sn.all([
            sn.assert_found(r'^paw exit status: 0$', self.stdout,
                            msg=f'{self.binary} exited with an error (see the job output)'),
            sn.assert_true(sn.defer(len(self.figures()) > 0), msg='paw reported no figure'),
            self.checks_passed(),
        ])

    @run_before('performance')
    def set_performance_variables(self):
        self.perf_variables = {
            row['figure']:
                sn.make_performance_function(sn.defer(float(row['value'])), row['unit'])
            for row in self.figures()
        }


@rfm.simple_test
class paw_latency(PawTest):
    """One-way 1-byte MPI_Send/MPI_Recv latency between two tasks."""
    binary = 'latency'
    tasks = 2


@rfm.simple_test
class paw_p2p_send(PawTest):
    """MPI_Send/MPI_Recv ping-pong: time at 1 B, bandwidth at the largest size."""
    binary = 'p2p_send'
    tasks = 2
    env = {'MAX_P2P_SIZE': '4194304'}
    quick_env = {'MAX_P2P_SIZE': '65536'}


@rfm.simple_test
class paw_col_ardc(PawTest):
    """MPI_Allreduce on every task: time at the smallest size."""
    binary = 'col_ardc'
    env = {'MAX_COL_SIZE': '1048576'}
    quick_env = {'MAX_COL_SIZE': '4096'}


@rfm.simple_test
class paw_stream(PawTest):
    """STREAM on one node: Triad's best rate."""
    binary = 'stream'
    node = True
    quick_env = {'STREAM_ARRAY_SIZE': '2000000'}


@rfm.simple_test
class paw_blas_dgemm_single(PawTest):
    """DGEMM through OpenBLAS on one node: GFLOP/s at the largest order."""
    binary = 'blas_dgemm_single'
    node = True
    env = {'MAX_BLAS_SIZE': '4000'}
    quick_env = {'MAX_BLAS_SIZE': '500'}


@rfm.simple_test
class paw_IMB_MPI1(PawTest):
    """IMB-MPI1 PingPong: time at 0 B, bandwidth at 4 MiB."""
    binary = 'IMB-MPI1'
    tasks = 2
    args = ['PingPong', '-check']
    quick_args = ['PingPong', '-msglog', '16', '-iter', '200', '-check']


@rfm.simple_test
class paw_b_eff(PawTest):
    """b_eff: the effective bandwidth, and per process."""
    binary = 'b_eff'
    quick_args = ['-short']
    # Its data check (PAW_CHECK=1) reads every byte of every message: the smoke run goes
    # without it (seven times faster here).
    quick_env = {'PAW_CHECK': '0'}
