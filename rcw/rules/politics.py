"""004 [11.0] Purge and the Central Committee, [13.5] execution of the Czar.

(Placeholder: registers nothing yet.)"""
