#!/usr/bin/env python3
"""Writes the .npy fixtures in this folder without NumPy.

NumPy was not installable where these files were made, so this script
writes the bytes NumPy 1.23+ `np.save` produces, from the format's
documentation (numpy.lib.format): magic b'\\x93NUMPY', version bytes, a
little-endian header length (2 bytes in 1.0, 4 in 2.0), then the header
dict repr with keys in sorted order, 21 - len(repr(shape[0])) spare spaces
(NumPy's room for growing the leading dim), space padding so that the data
starts at a multiple of 64, and a newline. The equivalent NumPy calls are
listed next to each file.
"""
import struct


def npy(name, descr, shape, payload, fortran=False, version=(1, 0), growth=True):
    d = "{'descr': %r, 'fortran_order': %r, 'shape': %r, }" % (descr, fortran, shape)
    if growth and shape:
        d += ' ' * (21 - len(repr(shape[-1 if fortran else 0])))
    fmt = '<H' if version[0] == 1 else '<I'
    hlen = len(d) + 1
    pad = 64 - ((6 + 2 + struct.calcsize(fmt) + hlen) % 64)
    data = b'\x93NUMPY' + bytes(version) + struct.pack(fmt, hlen + pad) + d.encode('latin1') + b' ' * pad + b'\n' + payload
    open(name, 'wb').write(data)


# np.save('f4_2x3.npy', np.arange(6, dtype='<f4').reshape(2, 3) / 2)
npy('f4_2x3.npy', '<f4', (2, 3), struct.pack('<6f', 0, 0.5, 1, 1.5, 2, 2.5))
# np.save('b1_4.npy', np.array([True, False, False, True]))
npy('b1_4.npy', '|b1', (4,), bytes([1, 0, 0, 1]))
# np.save('i8_scalar.npy', np.int64(-42))
npy('i8_scalar.npy', '<i8', (), struct.pack('<q', -42))
# np.save('u1_fortran_2x3.npy', np.asfortranarray(np.arange(6, dtype='u1').reshape(2, 3)))
npy('u1_fortran_2x3.npy', '|u1', (2, 3), bytes([0, 3, 1, 4, 2, 5]), fortran=True)
# np.save('f2_3.npy', np.array([1, -2, 65504], dtype='<f2'))
npy('f2_3.npy', '<f2', (3,), struct.pack('<3e', 1, -2, 65504))
# np.save('i2_be_2.npy', np.array([1, -2], dtype='>i2'))
npy('i2_be_2.npy', '>i2', (2,), struct.pack('>2h', 1, -2))
# np.lib.format.write_array(f, np.array([7, 8], dtype='<i4'), version=(2, 0))
npy('i4_v2.npy', '<i4', (2,), struct.pack('<2i', 7, 8), version=(2, 0))
# np.save('f8_0x2.npy', np.zeros((0, 2)))
npy('f8_0x2.npy', '<f8', (0, 2), b'')
# graft extension (no NumPy equivalent): bfloat16 [1.0, -0.5] as raw bits.
npy('bf16_2.npy', [('bfloat16', '<u2')], (2,), struct.pack('<2H', 0x3F80, 0xBF00))
