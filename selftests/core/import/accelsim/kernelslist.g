MemcpyHtoD,0x00007f1e5a000000,4096
MemcpyHtoD,0x00007f1e5a001000,4096
kernel-1.traceg
kernel-2.traceg
MemcpyDtoH,0x00007f1e5a002000,4096
