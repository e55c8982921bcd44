"""Jobs and where they come from: SWF traces, workload tables, CPU usage models, the feeder."""

from .cpu import CpuEstimateModel, CpuUsageModel
from .feed import JobFeeder, jobs_from_table
from .job import Job, JobState
from .swf import SWFHeader, SWFRecord, iter_records, read_header, write_swf
from .table import CleaningReport, WorkloadTable, prepare, read_table

__all__ = ["CleaningReport", "CpuEstimateModel", "CpuUsageModel", "Job", "JobFeeder", "JobState",
           "SWFHeader", "SWFRecord", "WorkloadTable", "iter_records", "jobs_from_table",
           "prepare", "read_header", "read_table", "write_swf"]
