"""Cobra (Decision Games, Normandy 1944): combat strengths, odds and shifts (`combat`), the
owner's tables (`tables`), the weather (`weather`), and the scenarios, sequence of play, tracks
and victory (`turns`)."""
