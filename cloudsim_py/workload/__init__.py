"""Jobs and where they come from: job descriptions, SWF traces, workload tables, CPU usage
models. Knows no policy, no datacenter wiring and no command line."""

from .cpu import CpuEstimateModel, CpuUsageModel
from .description import JobDescription, RigidJob
from .job import Job, JobState
from .jobs import descriptions_from_table
from .swf import SWFHeader, SWFRecord, iter_records, read_header, write_swf
from .table import CleaningReport, WorkloadTable, prepare, read_table

__all__ = ["CleaningReport", "CpuEstimateModel", "CpuUsageModel", "Job", "JobDescription",
           "JobState", "RigidJob", "SWFHeader", "SWFRecord", "WorkloadTable",
           "descriptions_from_table", "iter_records", "prepare", "read_header", "read_table",
           "write_swf"]
