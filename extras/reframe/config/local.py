"""ReFrame configuration for paw's tests on this machine: the local scheduler, one partition
that starts MPI jobs with mpirun (feature `mpi`) and one that runs node tests directly."""

site_configuration = {
    'systems': [
        {
            'name': 'paw-local',
            'descr': 'this machine',
            'hostnames': ['.*'],
            'partitions': [
                {
                    'name': 'mpirun',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'features': ['mpi'],
                    'environs': ['builtin'],
                    'max_jobs': 1,
                },
                {
                    'name': 'local',
                    'scheduler': 'local',
                    'launcher': 'local',
                    'environs': ['builtin'],
                    'max_jobs': 1,
                },
            ],
        }
    ],
}
