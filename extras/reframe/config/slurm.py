"""ReFrame configuration of a Slurm site for paw's tests (an example to adapt): jobs go to
the `compute` partition through sbatch and start with srun; node tests also run there."""

site_configuration = {
    'systems': [
        {
            'name': 'cluster',
            'descr': 'a Slurm cluster',
            'hostnames': [r'^login\d+'],
            'partitions': [
                {
                    'name': 'compute',
                    'scheduler': 'slurm',
                    'launcher': 'srun',
                    'features': ['mpi'],
                    'access': ['--partition=compute', '--exclusive'],
                    'sched_options': {'use_nodes_option': True},
                    'environs': ['builtin'],
                    'max_jobs': 4,
                    # srun's options: PMIx for Open MPI (pmi2 for MPICH), tasks bound to cores.
                    'extras': {'launcher_opts': ['--mpi=pmix', '--cpu-bind=cores']},
                },
            ],
        }
    ],
}
