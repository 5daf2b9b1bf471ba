#!/usr/bin/env python3
"""torchtidy lsp: from save to diagnostics, against the command line.

A scratch project of the in-house corpus (bench/corpus) with plain LibTorch
flags, as a user's build writes compile_commands.json, linted once whole so
the result cache and the shared LibTorch parse are warm. Then, taking
turns, --rounds times each:
  command line  an edit saved to one file (a comment line appended), then
                `torchtidy -p <build> --format=json <file>`, timed;
  editor        the same edit, then textDocument/didSave to a running
                `torchtidy lsp`, timed to the publishDiagnostics for the
                file.
Each side keeps its median; the ratio editor / command line is printed
(target <= 1.2). The editor's findings must be the command line's (exit 1
when they are not, or when a save publishes nothing).

usage: lsp_latency.py [--build DIR] [--include-dir DIR] [--rounds N]
                      [--file NAME] [--files N]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import queue

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from shared_pch import write_project  # noqa: E402


class LanguageClient:
    """The JSON-RPC side of an editor, enough to open, save and read what
    the server publishes."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(stream.read(length)))

    def _send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body)
                                 + body)
        self.process.stdin.flush()

    def request(self, method, params, timeout=600):
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                    "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id, timeout)

    def notify(self, method, params):
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, accept, timeout=600):
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(
                timeout=max(0.0, deadline - time.monotonic()))
            if accept(message):
                return message

    def published(self, uri, timeout=600):
        return self.wait(lambda m: m.get("method") ==
                         "textDocument/publishDiagnostics" and
                         m["params"]["uri"] == uri, timeout)["params"]

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=60)


def append_comment(path, round_number):
    """A saved edit that changes the file's text (the cache misses) but not
    what it compiles to."""
    with open(path, "a") as source:
        source.write(f"// edit {round_number}\n")


def findings_of(json_text):
    return sorted((f["check"], f["line"], f["column"])
                  for f in json.loads(json_text)["findings"]
                  if f["level"] != "error")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build",
                                                        "llvm-22"))
    parser.add_argument("--include-dir",
                        default="/usr/include/torch/csrc/api/include")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--file", default="a_bug_loss_accumulation.cpp",
                        help="the corpus file saved (bench/corpus/<name>)")
    parser.add_argument("--files", type=int, default=8,
                        help="corpus files in the project, --file first")
    args = parser.parse_args()
    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    if subprocess.run([torchtidy, "lsp", "--help"],
                      capture_output=True).returncode != 0:
        print(f"'{torchtidy} lsp' is not there (LLVM 22 builds it)")
        return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="torchtidy-lsp-") as scratch:
        corpus = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus",
                                               "*.cpp")),
                        key=lambda path: os.path.basename(path) != args.file)
        sources = []
        for corpus_file in corpus[:args.files]:
            copy = os.path.join(scratch, "src", os.path.basename(corpus_file))
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            with open(corpus_file) as original, open(copy, "w") as out:
                out.write(original.read())
            sources.append(copy)
        build = os.path.join(scratch, "build")
        write_project(build, sources, args.include_dir, build)
        target = os.path.join(scratch, "src", args.file)
        if target not in sources:
            print(f"bench/corpus/{args.file} does not exist")
            return 2
        start = time.monotonic()
        subprocess.run([torchtidy, "-p", build, "-j", "2"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"lsp: {len(sources)} corpus files linted once (cache and "
              f"shared parse warm): {time.monotonic() - start:.1f} s")

        client = LanguageClient([torchtidy, "lsp", "-j", "1"])
        client.request("initialize", {"processId": os.getpid(),
                                      "rootUri": "file://" + scratch,
                                      "capabilities": {}})
        client.notify("initialized", {})
        uri = "file://" + target
        with open(target) as source:
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cpp", "version": 1,
                "text": source.read()}})
        client.published(uri)

        command_times, editor_times = [], []
        for round_number in range(args.rounds):
            append_comment(target, 2 * round_number)
            start = time.monotonic()
            command = subprocess.run(
                [torchtidy, "-p", build, "--format=json", target],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            command_times.append(time.monotonic() - start)

            append_comment(target, 2 * round_number + 1)
            start = time.monotonic()
            client.notify("textDocument/didSave",
                          {"textDocument": {"uri": uri}})
            params = client.published(uri)
            editor_times.append(time.monotonic() - start)

            expected = findings_of(command.stdout)
            got = sorted((d.get("code"), d["range"]["start"]["line"] + 1,
                          d["range"]["start"]["character"] + 1)
                         for d in params["diagnostics"] if d.get("code"))
            if got != expected:
                print(f"  round {round_number}: the editor got {got}, the "
                      f"command line {expected}")
                ok = False
        client.close()

    command_median = statistics.median(command_times)
    editor_median = statistics.median(editor_times)
    print(f"lsp: {args.file}, an edit saved, {args.rounds} rounds, "
          "cache and shared parse warm:")
    print(f"  command line (torchtidy -p <build> <file>): "
          f"{command_median:.2f} s (median; "
          + ", ".join(f"{t:.2f}" for t in command_times) + ")")
    print(f"  editor (didSave to publishDiagnostics):     "
          f"{editor_median:.2f} s (median; "
          + ", ".join(f"{t:.2f}" for t in editor_times) + ")")
    print(f"  editor / command line: {editor_median / command_median:.2f} "
          "(target <= 1.2)")
    print(f"  the editor's findings are the command line's: "
          f"{'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
