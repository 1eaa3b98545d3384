"""The command line (`pitfalls …`): one module per command, and the build/serve driver."""
