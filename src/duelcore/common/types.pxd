# Fixed-width typedefs shared by every game's core (one place, so they cannot drift).
from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, uint64_t

ctypedef uint8_t u8
ctypedef int8_t i8
ctypedef int16_t i16
ctypedef uint16_t u16
ctypedef uint32_t u32
ctypedef int32_t i32
ctypedef uint64_t u64
