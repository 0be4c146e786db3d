import os
import pathlib

import pytest


@pytest.fixture
def source_dir():
    return pathlib.Path(os.environ.get("GRAFT_SOURCE_DIR",
                                       pathlib.Path(__file__).resolve().parents[2]))
