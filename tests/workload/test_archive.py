"""``traces list`` / ``traces fetch``: catalogue, cache folder, verified download - against a
local HTTP server on 127.0.0.1 serving the shared traces by file name, never the internet."""

from __future__ import annotations

import argparse
import gzip
import hashlib
import http.server
import threading

import pytest

from cloudsim_py.workload import archive
from cloudsim_py.commands.traces import add_traces_commands
from cloudsim_py.workload.archive import CATALOGUE, cache_dir, find_trace

from .conftest import shared_traces_dir


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="cloudsim-py")
    add_traces_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.func(args)


class Server:
    """Serves ``files`` (URL file name -> bytes) whatever the folder part of the path."""

    def __init__(self, files: dict[str, bytes]):
        self.files = files
        self.requests: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):                      # noqa: N802 (http.server API)
                outer.requests.append(self.path)
                body = outer.files.get(self.path.rsplit("/", 1)[-1])
                if body is None:
                    self.send_error(404, "not here")
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/workload"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def ctc_bytes():
    path = shared_traces_dir() / "CTC-SP2-1996-3.1-cln.swf.gz"
    if not path.is_file():
        pytest.skip(f"trace {path.name} not found in {shared_traces_dir()} (set CLOUDSIM_PY_TRACES)")
    return path.read_bytes()


@pytest.fixture
def server():
    servers = []

    def start(files):
        s = Server(files)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()


def test_catalogue_checksums_are_the_ones_verified_in_provenance(ctc_bytes):
    # PROVENANCE.md: CTC-SP2-1996-3.1-cln.swf.gz sha256 9fa28ac1...85bb4, 1,487,336 bytes
    ctc = find_trace("CTC-SP2")
    assert ctc.sha256 == hashlib.sha256(ctc_bytes).hexdigest() and ctc.size == len(ctc_bytes)
    for t in CATALOGUE:
        if t.sha256 is not None:
            local = shared_traces_dir() / t.file
            if local.is_file():
                assert hashlib.sha256(local.read_bytes()).hexdigest() == t.sha256, t.name


def test_the_papers_traces_are_in_the_catalogue():
    names = {t.name for t in CATALOGUE}
    assert {"LANL-CM5", "CTC-SP2", "KTH-SP2", "SDSC-SP2", "SDSC-BLUE", "HPC2N"} <= names
    assert find_trace("kth-sp2-1996-2.1-cln.swf.gz").name == "KTH-SP2"
    assert find_trace("LANL-CM5").sha256 is None           # not verifiable here: no invented checksum


def test_fetch_downloads_verifies_and_says_where(ctc_bytes, server, tmp_path, capsys):
    s = server({"CTC-SP2-1996-3.1-cln.swf.gz": ctc_bytes})
    assert run("traces", "fetch", "CTC-SP2", "--base-url", s.url, "--cache", str(tmp_path)) == 0
    dest = tmp_path / "CTC-SP2-1996-3.1-cln.swf.gz"
    assert dest.read_bytes() == ctc_bytes
    assert s.requests == ["/workload/l_ctc_sp2/CTC-SP2-1996-3.1-cln.swf.gz"]
    out = capsys.readouterr().out
    assert str(dest) in out and "sha256 verified" in out


def test_a_cached_verified_copy_is_not_downloaded_again(ctc_bytes, server, tmp_path, capsys):
    (tmp_path / "CTC-SP2-1996-3.1-cln.swf.gz").write_bytes(ctc_bytes)
    s = server({})
    assert run("traces", "fetch", "CTC-SP2", "--base-url", s.url, "--cache", str(tmp_path)) == 0
    assert s.requests == [] and "already in the cache" in capsys.readouterr().out


def test_a_corrupt_download_is_rejected_and_not_kept(ctc_bytes, server, tmp_path, capsys):
    bad = bytearray(ctc_bytes)
    bad[1000] ^= 0xFF
    s = server({"CTC-SP2-1996-3.1-cln.swf.gz": bytes(bad)})
    assert run("traces", "fetch", "CTC-SP2", "--base-url", s.url, "--cache", str(tmp_path)) == 1
    assert "does not match the catalogue" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_unknown_checksum_means_gzip_and_swf_shape_are_checked(server, tmp_path, capsys):
    swf = b"; MaxProcs: 4\n" + b"1 0 -1 10 4 -1 -1 4 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
    s = server({"LANL-CM5-1994-4.1-cln.swf.gz": gzip.compress(swf)})
    assert run("traces", "fetch", "LANL-CM5", "--base-url", s.url, "--cache", str(tmp_path)) == 0
    assert "checksum unknown: gzip integrity and SWF shape verified" in capsys.readouterr().out
    s.files["LANL-CM5-1994-4.1-cln.swf.gz"] = gzip.compress(swf)[:-6]        # truncated gzip
    (tmp_path / "LANL-CM5-1994-4.1-cln.swf.gz").unlink()
    assert run("traces", "fetch", "LANL-CM5", "--base-url", s.url, "--cache", str(tmp_path)) == 1
    assert "not a complete gzip file" in capsys.readouterr().err


def test_missing_file_on_the_server_is_a_clear_error(server, tmp_path, capsys):
    s = server({})
    assert run("traces", "fetch", "KTH-SP2", "--base-url", s.url, "--cache", str(tmp_path)) == 1
    assert "HTTP 404" in capsys.readouterr().err


def test_unknown_trace_name_lists_the_known_ones(tmp_path, capsys):
    assert run("traces", "fetch", "MARS-1", "--cache", str(tmp_path)) == 1
    err = capsys.readouterr().err
    assert "unknown trace 'MARS-1'" in err and "CTC-SP2" in err


def test_base_url_from_the_environment(ctc_bytes, server, tmp_path, monkeypatch):
    s = server({"CTC-SP2-1996-3.1-cln.swf.gz": ctc_bytes})
    monkeypatch.setenv("CLOUDSIM_PY_ARCHIVE_URL", s.url + "/")
    path, how = archive.fetch(find_trace("CTC-SP2"), cache=tmp_path)
    assert path == tmp_path / "CTC-SP2-1996-3.1-cln.swf.gz" and s.requests


def test_cache_folder_order(monkeypatch, tmp_path):
    monkeypatch.setenv("CLOUDSIM_PY_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache_dir() == tmp_path / "a"
    assert cache_dir(tmp_path / "b") == tmp_path / "b"
    monkeypatch.delenv("CLOUDSIM_PY_CACHE")
    assert cache_dir() == tmp_path / "x" / "cloudsim_py" / "traces"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "cloudsim_py" / "traces"


def test_list_shows_names_checksums_and_what_is_cached(ctc_bytes, tmp_path, capsys):
    (tmp_path / "CTC-SP2-1996-3.1-cln.swf.gz").write_bytes(ctc_bytes)
    assert run("traces", "list", "--cache", str(tmp_path)) == 0
    lines = capsys.readouterr().out.splitlines()
    ctc = next(line for line in lines if line.startswith("CTC-SP2 "))
    lanl = next(line for line in lines if line.startswith("LANL-CM5 "))
    assert "9fa28ac16c4386fb.." in ctc and " yes " in ctc
    assert "unknown" in lanl and " no " in lanl


@pytest.mark.parametrize("base", ["file:///etc", "ftp://example.org/pub", "/tmp/traces", "data:,x", "http:///nohost"])
def test_fetch_refuses_anything_but_http_urls(base, tmp_path, capsys):
    assert run("traces", "fetch", "CTC-SP2", "--base-url", base, "--cache", str(tmp_path)) == 1
    assert "only http:// and https:// URLs can be fetched" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_fetch_refuses_a_redirect_to_an_ftp_url(server, tmp_path, capsys):
    # urllib itself refuses redirects to file:, but follows them to ftp:
    s = server({})

    def redirect(handler):
        handler.send_response(302)
        handler.send_header("Location", "ftp://127.0.0.1:1/KTH-SP2-1996-2.1-cln.swf.gz")
        handler.end_headers()

    s.httpd.RequestHandlerClass.do_GET = redirect
    assert run("traces", "fetch", "KTH-SP2", "--base-url", s.url, "--cache", str(tmp_path)) == 1
    assert "ftp://127.0.0.1:1/KTH-SP2-1996-2.1-cln.swf.gz: only http:// and https:// URLs can be fetched, not ftp:" \
        in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
