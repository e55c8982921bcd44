"""VM types: validation names the VM type and the key; VMs needed, run and transfer times."""

import pytest

from cloudsim_py.errors import PlatformError
from cloudsim_py.clouds.vmtypes import VMType

SMALL = dict(cpus=2, memory_mb=2048, disk_mb=20_000, bandwidth_mbps=50.0)


def test_zero_cpus_is_an_error_naming_the_vm_type_and_key():
    with pytest.raises(PlatformError, match=r"VM type 'tiny': cpus = 0 must be an integer >= 1"):
        VMType("tiny", **{**SMALL, "cpus": 0})


@pytest.mark.parametrize("key, value", [("bandwidth_mbps", 0.0), ("bandwidth_mbps", -1.0), ("memory_mb", 0),
                                        ("disk_mb", -1), ("speed", 0.0), ("bandwidth_mbps", float("inf"))])
def test_out_of_range_values_are_errors_naming_the_key(key, value):
    with pytest.raises(PlatformError, match=f"VM type 'small': {key} = "):
        VMType("small", **{**SMALL, key: value})


def test_from_mapping_rejects_unknown_and_missing_keys():
    with pytest.raises(PlatformError, match=r"VM type 'x': unknown key 'gpus' \(known: cpus, memory_mb"):
        VMType.from_mapping("x", {**SMALL, "gpus": 1})
    with pytest.raises(PlatformError, match=r"VM type 'x': missing key 'bandwidth_mbps'"):
        VMType.from_mapping("x", {k: v for k, v in SMALL.items() if k != "bandwidth_mbps"})


def test_from_mapping_builds_the_type():
    vm = VMType.from_mapping("small", {**SMALL, "speed": 1.5})
    assert vm == VMType("small", 2, 2048, 20_000, 50.0, 1.5)


@pytest.mark.parametrize("cpus, vms", [(1, 1), (2, 1), (3, 2), (4, 2), (1.5, 1), (4.5, 3)])
def test_vms_needed_is_the_ceiling_of_cpus_over_vm_cpus(cpus, vms):
    assert VMType("small", **SMALL).vms_for(cpus) == vms


def test_run_time_divides_by_speed_and_transfer_time_divides_by_bandwidth():
    # a 300 s task on a speed-1.5 VM: 200 s; a 600 MB image at 50 MB/s: 12 s
    vm = VMType("fast", **{**SMALL, "speed": 1.5})
    assert (vm.run_time(300.0), vm.transfer_time(600.0)) == (200.0, 12.0)
