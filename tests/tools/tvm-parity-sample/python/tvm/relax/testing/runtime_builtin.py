# A stand-in for TVM's file of VM shape codes, read by check_tvm_parity.py.
from enum import IntEnum


class MatchShapeCode(IntEnum):
    STORE_TO_HEAP = 1
