"""Bit operations on uint64 for nopython code, as single LLVM intrinsics.

numba compiles for the host CPU, so these become the POPCNT and TZCNT/BSF instructions
instead of a dozen shifts and masks. Both take and return uint64.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, value):
    """Number of set bits."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def trailing_zeros(typingctx, value):
    """Index of the lowest set bit (64 for 0)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@intrinsic
def float_from_bits(typingctx, bits):
    """The float64 whose IEEE 754 bits are ``bits`` (an int64), with no conversion."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen
