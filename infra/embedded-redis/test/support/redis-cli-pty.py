# Drives an interactive redis-cli session through a pseudo-terminal (redis-cli only runs its
# interactive mode, which loads COMMAND DOCS for hints, when stdin is a tty).
# usage: python3 redis-cli-pty.py <port> <command>...   -> prints the session transcript
import os, pty, re, select, sys, time

port, cmds = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp('redis-cli', ['redis-cli', '-p', port])
out = b''

def pump(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if not data:
            return
        if b'\x1b[6n' in data:  # linenoise asks for the cursor position
            os.write(fd, b'\x1b[1;1R')
        out += data

pump(1.0)
for c in cmds:
    os.write(fd, c.encode() + b'\r')
    pump(0.6)
os.write(fd, b'quit\r')
pump(0.6)
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass
text = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out.decode('latin1')).replace('\r', '')
print(text)
