"""`python -m tests.pi_check`: build the arm64 root, the apt view and the wheels; time it."""

from tests.pi_check import main

main()
