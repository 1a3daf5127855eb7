/* libdeflate (Debian's libdeflate-dev): its CRC-32, the checksum of SMP's file hashes and of S3
   parts, folded with carry-less multiplication where the CPU has it. */
#include <libdeflate.h>
