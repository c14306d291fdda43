"""The PyTorch path across two simulated hosts (issue 39; the rig of scripts/tests/hosts.sh: two
nodes with their own network namespace, address, host name and /dev/shm). On each node
``python3 -m torch.distributed.run --nnodes 2 --node_rank N --nproc_per_node 2 --master_addr
<node 0's job address>`` starts two ranks, four in all, over real TCP between the namespaces and a
real Gloo group. Each rank reads a dataset under /tmp (both nodes see it, as a cluster's shared
file system) through ``StreamingLeRobotDataset`` (its rank and world size from the process group,
nothing passed) and trains a DistributedDataParallel model for two epochs. Asserts: every sample
seen by exactly one rank in each epoch, as many samples on every rank, and one model (every rank's
state_dict hashes alike, and differs from the start). Skipped where the rig cannot be made (not
root, no network namespaces): it never passes there.

Node 1 names itself 127.0.1.1 (as Debian writes /etc/hosts): PyTorch's Gloo then listens on
loopback there and node 0's ranks are refused, so the ranks set ``GLOO_SOCKET_IFNAME`` to the job
network's interface, as a user must (docs/PYTHON.md, "Across hosts")."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import make_dataset

REPO = Path(__file__).resolve().parents[2]
HOSTS = REPO / "scripts" / "tests" / "hosts.sh"
# The rig's name (hosts.sh's ROBOSTREAM_HOSTS_NAME); by default not the Java tests' "rs", so that
# both can run at once.
RIG = os.environ.get("ROBOSTREAM_HOSTS_NAME", "rspy")
NODE0_JOB = "198.51.100.10"  # node 0's address on the job network: the rendezvous is here
JOB_INTERFACE = "job"  # the job network's interface on both nodes
PORT = 29500  # in node 0's own network namespace: nothing else listens there
NODES, PER_NODE, EPOCHS = 2, 2, 2
WORLD = NODES * PER_NODE
EPISODES, FRAMES, BATCH = 8, 10, 4
WAIT_S = 150  # for both launchers, together

# Every variable a launcher sets: none may leak in from the test's own environment.
LAUNCHER_VARIABLES = (
    "MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
    "GROUP_RANK", "ROLE_RANK", "TORCHELASTIC_RUN_ID", "GLOO_SOCKET_IFNAME", "SLURM_PROCID",
    "SLURM_NTASKS", "SLURM_NODEID", "SLURM_LOCALID", "OMPI_COMM_WORLD_RANK",
    "OMPI_COMM_WORLD_SIZE",
)

RANK_SCRIPT = r"""
import datetime, hashlib, json, os, socket, sys
from pathlib import Path
bridge, root, out = sys.argv[1:4]
rank = int(os.environ["RANK"])
sys.path.insert(0, bridge)
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader
from robostream.torch import StreamingLeRobotDataset

def digest(model):
    h = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        h.update(name.encode())
        h.update(tensor.detach().contiguous().numpy().tobytes())
    return h.hexdigest()

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
ds = StreamingLeRobotDataset("local/two-hosts", root=root, buffer_size=20, num_workers=1)
torch.manual_seed(rank)  # each rank starts from other weights: DDP must make them one
model = torch.nn.parallel.DistributedDataParallel(
    torch.nn.Sequential(torch.nn.Conv2d(3, 4, 5, stride=4), torch.nn.ReLU(),
                        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(4, 6)))
start = digest(model.module)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
epochs = []
for epoch in range(int(sys.argv[4])):
    ds.set_epoch(epoch)
    seen, steps = [], 0
    for batch in DataLoader(ds, batch_size=int(sys.argv[5])):
        loss = torch.nn.functional.l1_loss(model(batch["observation.images.top"]), batch["action"])
        optimizer.zero_grad()
        loss.backward()  # all-reduces across hosts: a rank with a batch more would hang here
        optimizer.step()
        seen += zip(batch["episode_index"].tolist(), batch["frame_index"].tolist())
        steps += 1
    epochs.append({"samples": seen, "steps": steps})
dist.barrier()
Path(out, f"rank-{rank}.json").write_text(json.dumps({
    "rank": rank, "world_size": dist.get_world_size(), "host": socket.gethostname(),
    "dataset_share": [ds.rank, ds.world_size], "epochs": epochs,
    "start": start, "end": digest(model.module)}))
dist.destroy_process_group()
"""


def hosts(*args, timeout=90):
    return subprocess.run(
        ["bash", str(HOSTS), *args], capture_output=True, text=True, timeout=timeout,
        env=dict(os.environ, ROBOSTREAM_HOSTS_NAME=RIG),
    )


@pytest.fixture(scope="module")
def rig(request):
    """The two-host rig, made for this module and removed after it, also when a test fails."""
    check = hosts("check")
    if check.returncode == 3:
        pytest.skip("no two-host rig here: " + check.stderr.strip())
    assert check.returncode == 0, check.stderr
    def stop():
        stopped = hosts("stop")
        assert stopped.returncode == 0, "hosts.sh stop failed: " + stopped.stderr

    request.addfinalizer(stop)  # before start: a half-made rig goes too
    started = hosts("start")
    assert started.returncode == 0, "hosts.sh start failed: " + started.stderr
    return RIG


def launch(node, script, root, out, log):
    """torch.distributed.run on ``node``, as a user runs it there."""
    env = {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARIABLES}
    env.update(ROBOSTREAM_HOSTS_NAME=RIG, OMP_NUM_THREADS="1", GLOO_SOCKET_IFNAME=JOB_INTERFACE)
    command = [
        "bash", str(HOSTS), "exec", str(node), "--",
        sys.executable, "-m", "torch.distributed.run",
        "--nnodes", str(NODES), "--node_rank", str(node), "--nproc_per_node", str(PER_NODE),
        "--master_addr", NODE0_JOB, "--master_port", str(PORT),
        # Debian's torch 1.13 under Python 3.11 cannot parse its own default --redirects "0"
        # (IntFlag iteration skips NONE): stdout is teed and stderr left alone.
        "--redirects", "1", "--tee", "1",
        str(script), str(REPO / "python"), str(root), str(out), str(EPOCHS), str(BATCH),
    ]
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)


def test_four_ranks_on_two_hosts_split_each_epoch_evenly_and_train_one_model(rig, tmp_path):
    root = make_dataset(
        tmp_path / "two-hosts", "--episodes", str(EPISODES), "--frames-per-episode", str(FRAMES),
        "--cameras", "1", "--size", "64x64",
    )
    script = tmp_path / "rank.py"
    script.write_text(RANK_SCRIPT)
    logs = [tmp_path / f"node{n}.log" for n in range(NODES)]
    launchers = []
    try:
        for n in range(NODES):
            with open(logs[n], "w") as log:
                launchers.append(launch(n, script, root, tmp_path, log))
        deadline = time.monotonic() + WAIT_S
        for p in launchers:
            p.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        pass
    finally:
        for p in launchers:
            if p.poll() is None:
                p.kill()
                p.wait()
    text = "".join(f"--- node {n}:\n{logs[n].read_text()[-4000:]}" for n in range(NODES))
    assert [p.returncode for p in launchers] == [0, 0], f"within {WAIT_S} s:\n{text}"

    ranks = [json.loads((tmp_path / f"rank-{r}.json").read_text()) for r in range(WORLD)]
    assert [r["host"] for r in ranks] == [f"{rig}-node{r // PER_NODE}" for r in range(WORLD)]
    # The dataset's share is the process group's, with nothing passed.
    assert [r["dataset_share"] for r in ranks] == [[r, WORLD] for r in range(WORLD)]
    every = sorted((e, f) for e in range(EPISODES) for f in range(FRAMES))
    for epoch in range(EPOCHS):
        shares = [[tuple(s) for s in r["epochs"][epoch]["samples"]] for r in ranks]
        counts = [len(s) for s in shares]
        assert counts == [len(every) // WORLD] * WORLD, f"epoch {epoch}: equal counts {counts}"
        assert sorted(sum(shares, [])) == every, f"epoch {epoch}: each sample on exactly one rank"
        steps = [r["epochs"][epoch]["steps"] for r in ranks]
        assert steps == [len(every) // WORLD // BATCH] * WORLD, f"epoch {epoch}: steps {steps}"
    # One model: each rank started from its own seed, DDP made them one, and training moved it.
    assert len({r["end"] for r in ranks}) == 1, [r["end"] for r in ranks]
    assert ranks[0]["end"] != ranks[0]["start"]
