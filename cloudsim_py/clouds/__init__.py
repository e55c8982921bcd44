"""The cloud domain (Li et al., seed 001; Haizea): VM types, clouds of VMs, execution-time matrices,
slot tables, the records of leases and tasks, and the local mapping that books and enacts leases
and tasks on one cloud. At the level of ``infrastructure/``: it uses the datacenter, never a
policy, a scenario or a runner."""
