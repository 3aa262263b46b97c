"""Transports: the only code that touches file descriptors and sockets."""
