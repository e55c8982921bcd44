"""The command line's logging set-up (cloudsim_py/logs.py): ``LEVEL name: message`` on standard
error at WARNING, or INFO with ``--verbose``, carried out when the first logger is made, so a
run whose modules never log does not import :mod:`logging`. Each case in a fresh interpreter
(pytest itself has imported and configured :mod:`logging`)."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)


def test_the_set_up_waits_for_the_first_logger_and_then_logs_warnings_in_the_cli_format():
    done = python("import sys\n"
                  "from cloudsim_py.logs import configure, logger\n"
                  "configure(False)\n"
                  "print('logging' in sys.modules)\n"
                  "log = logger('cloudsim_py.x')\n"
                  "log.warning('careful %d', 1)\n"
                  "log.info('detail')\n")
    assert done.stdout == "False\n"
    assert done.stderr == "WARNING cloudsim_py.x: careful 1\n"


def test_verbose_logs_info_too():
    done = python("from cloudsim_py.logs import configure, logger\n"
                  "configure(True)\n"
                  "logger('cloudsim_py.x').info('detail')\n")
    assert done.stderr == "INFO cloudsim_py.x: detail\n"


def test_with_logging_already_imported_the_set_up_is_carried_out_at_once():
    done = python("import logging\n"
                  "from cloudsim_py.logs import configure\n"
                  "configure(False)\n"
                  "logging.getLogger('other').warning('seen')\n")
    assert done.stderr == "WARNING other: seen\n"


def test_a_program_that_configured_logging_itself_keeps_its_configuration():
    done = python("import logging\n"
                  "logging.basicConfig(format='%(message)s', level=logging.ERROR)\n"
                  "from cloudsim_py.logs import configure, logger\n"
                  "configure(True)\n"
                  "logger('cloudsim_py.x').warning('hidden')\n"
                  "logger('cloudsim_py.x').error('shown')\n")
    assert done.stderr == "shown\n"
