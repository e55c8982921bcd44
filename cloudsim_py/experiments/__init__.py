"""Experiments: sweeps of scenarios on local processes or Dask (``sweep``, ``runs``,
``backends``), their results table (``store``), figures, tables and Gantt charts (``plots``,
``report``, ``gantt``, ``schedule``), and the published tables they reproduce (``liu2015``)."""
