"""Starts the embedded-redis CLI, SIGKILLs it and starts it again on the same data dir at once,
without waiting for the killed child: until its parent waits, the dead server is a zombie whose
pid still answers kill(pid, 0), as when a supervisor restarts it within a second.
Usage: kill-restart.py <node> <main.ts> <data dir>; prints one JSON line."""
import json
import os
import select
import signal
import subprocess
import sys
import time

node, main, data_dir = sys.argv[1:4]
args = [node, '--import', 'tsx', main, '--port', '0', '--data-dir', data_dir]


def wait_listening(proc, timeout):
    """The listening line's port, or None if the process exited or stayed silent."""
    deadline = time.time() + timeout
    buf = b''
    while time.time() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.1)
        if not ready:
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            return None
        buf += chunk
        for line in buf.split(b'\n')[:-1]:
            msg = json.loads(line)
            if msg.get('msg') == 'listening':
                return msg['port']
    return None


first = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
wait_listening(first, 20)
os.kill(first.pid, signal.SIGKILL)
time.sleep(0.3)
with open(f'/proc/{first.pid}/stat') as f:
    state = f.read().rsplit(')', 1)[1].split()[0]
second = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
port = wait_listening(second, 20)
if port is not None:
    second.send_signal(signal.SIGTERM)
code = second.wait(20)
print(json.dumps({'firstPid': first.pid, 'firstState': state, 'port': port, 'code': code, 'stderr': second.stderr.read().decode()}))
first.wait()
