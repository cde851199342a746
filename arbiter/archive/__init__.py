"""Verify whole archives of game folders: find them, verify each, report (issue 13).

``folders`` finds the game folders under the paths given; ``job`` verifies one game (or a
batch) and returns plain data, so any process — a local worker or a Dask worker — can run
it; ``pool`` runs the jobs on this machine; ``dask_backend`` (imported only with
``--scheduler``) runs them on a Dask cluster; ``report`` turns the results into the
report, which is the same whichever ran them.
"""
