"""The order of the datacenter model's events inside one timestamp (docs/time-and-ordering.md).
The engine only compares these numbers; this module is where the model declares them."""

#: a job's last process completes, a resumed job has paid its migration cost: capacity freed or
#: changed at t must be visible to everything else at t
RELEASE = 0
#: end of a time slice (``slice`` fidelity): interference factors are redrawn before decisions
SLICE = 1
#: a job is submitted (workload sources)
ARRIVAL = 2
#: a message between entities arrives (schedulers of several clouds)
MESSAGE = 3
#: a wake-up a broker asked for with ``wake_at``
TIMER = 4
