"""Guards! Guards! (Backspindle Games, 2012 revised edition)."""
