"""The order of the datacenter model's events inside one timestamp (docs/time-and-ordering.md).
The engine only compares these numbers; this module is where the model declares them."""

#: a job's last process completes, a resumed job has paid its migration cost: capacity freed or
#: changed at t must be visible to everything else at t
RELEASE = 0
#: a planned preemption (a best-effort lease suspended for a reservation) and the end of a
#: suspension's save: capacity a scheduler frees on purpose at t, after the finishes at t and
#: before anything takes capacity at t (a reservation starting at t, an arrival at t)
PREEMPT = 1
#: end of a time slice (``slice`` fidelity): interference factors are redrawn before decisions
SLICE = 2
#: a job is submitted (workload sources)
ARRIVAL = 3
#: a message between entities arrives (schedulers of several clouds)
MESSAGE = 4
#: a wake-up a broker asked for with ``wake_at``, and a start it planned (a reservation whose
#: image transfer is over): these take capacity, so they come after every release at t
TIMER = 5
