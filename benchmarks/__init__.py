"""The measurements (benchmarks/README.md): each script runs from the repository root as
`python -m benchmarks.NAME`, and imports the others as `benchmarks.NAME`."""
