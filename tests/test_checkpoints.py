"""Checkpoints are data: the pipeline's own checkpoint loads back whole with weights_only=True,
and a file whose pickle would run code is refused in one line, unread (nothing runs)."""

import math
import os
import pickle

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from nrpa.domains.morpion import encode_move, make_morpion  # noqa: E402
from nrpa.domains.morpion_rules import load_record  # noqa: E402
from nrpa.errors import InputError  # noqa: E402
from nrpa.neural import data  # noqa: E402
from nrpa.neural.training import (  # noqa: E402
    TrainSettings, load_checkpoint, load_network, plain, save_checkpoint, train,
)


@pytest.fixture(scope="module")
def record_games():
    domain = make_morpion("5D")
    moves = [encode_move(domain, list(m)) for m in load_record("5d_82_rosin")]
    return data.from_sequences([moves, moves[:30]], [82.0, 30.0], {"made_by": "tests"})


def _same(a, b) -> bool:
    """Equal, tensors compared by value."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or (isinstance(a, float) and math.isnan(a) and isinstance(b, float) and math.isnan(b))


def test_the_pipelines_checkpoint_loads_back_with_the_same_tensors_and_settings(record_games, tmp_path):
    path = tmp_path / "net.pt"
    settings = TrainSettings(network="basic", representation="R1", epochs=1)
    state = train(record_games, settings, path, progress=False)
    saved = load_checkpoint(path, torch.device("cpu"))
    assert _same(torch.load(path, weights_only=True), saved)  # torch's own safe reader takes it as it is
    for key in ("settings", "epoch", "curves", "data", "device", "network"):
        assert _same(saved[key], state[key]), key
    assert saved["optimizer"]["state"] and saved["scheduler"]["last_epoch"] == 1
    network, loaded = load_network(path)
    assert loaded == settings
    assert all(torch.equal(value, state["network"][key]) for key, value in network.state_dict().items())


def test_numpy_numbers_are_saved_plain_and_other_objects_are_a_bug(tmp_path):
    path = tmp_path / "c.pt"
    save_checkpoint(path, {"n": np.int64(3), "x": np.float64(0.5), "a": np.arange(3), "t": (np.bool_(True), 1)})
    assert torch.load(path, weights_only=True) == {"n": 3, "x": 0.5, "a": [0, 1, 2], "t": (True, 1)}
    with pytest.raises(TypeError, match=r"checkpoint\['record'\]\['when'\] holds a \w*Path"):
        save_checkpoint(path, {"record": {"when": tmp_path}})
    assert plain({"network": torch.nn.Linear(2, 2).state_dict()})["network"]._metadata  # kept as it is


class _Pwn:
    """A pickle that runs a command when read without weights_only."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_checkpoint_whose_pickle_would_run_code_is_refused_in_one_line(record_games, tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "net.pt"
    settings = TrainSettings(network="basic", representation="R1", epochs=1)
    torch.save({"settings": {"planes": 0}, "network": {}, "payload": _Pwn(marker)}, path)
    for load in (lambda: load_checkpoint(path, torch.device("cpu")), lambda: load_network(path),
                 lambda: train(record_games, settings, path, progress=False)):
        with pytest.raises(InputError) as refused:
            load()
        message = str(refused.value)
        assert "\n" not in message and refused.value.__cause__ is None
        assert message.startswith(f"{path} is not a plain checkpoint (it names ")
        assert "system" in message and "make morpion-table1" in message
    assert not marker.exists()
    plain_pickle = tmp_path / "old.pt"  # a pickle not of torch.save, of anything: refused all the same
    plain_pickle.write_bytes(pickle.dumps(_Pwn(marker)))
    with pytest.raises(InputError, match="old.pt is not a plain checkpoint"):
        load_checkpoint(plain_pickle, torch.device("cpu"))
    assert not marker.exists()
