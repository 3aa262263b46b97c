"""The wire protocol (CGP family `contextgraph/1`): typed messages, decoding with
every failure a `bad_request`, one-line encoding, versions, error codes.
Knows nothing of transports, ranking or the index."""
