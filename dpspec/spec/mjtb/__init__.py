"""[MJTB+22] "Private Federated Statistics in an Interactive Setting": the recipe and its one-hot
encoding (App. B, Fig. 4; :mod:`~dpspec.spec.mjtb.recipe`) and the interactive n-gram discovery
algorithm of sec. 1 and 4 (:mod:`~dpspec.spec.mjtb.discovery`). The local randomizer
(:class:`dpspec.spec.mechanisms.SymmetricRappor`) and the budget accountant
(:mod:`dpspec.spec.accounting.budget`) live with the other mechanisms and accounting.
"""
