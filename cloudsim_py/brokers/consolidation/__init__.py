"""Consolidation policies on prioritized tiers: Liu 2015 (CCFCFS, ACFCFS), Liu 2013 (CMBF, AMBF,
CMCBF, AMCBF) and the k-tier generalisation (KTCBF). Importing registers them."""

from .ccfcfs import AcfcfsBroker, CcfcfsBroker
from .mbf import AmbfBroker, AmcbfBroker, CmbfBroker, CmcbfBroker, KtcbfBroker, MigrationBackfillBroker

__all__ = ["AcfcfsBroker", "AmbfBroker", "AmcbfBroker", "CcfcfsBroker", "CmbfBroker",
           "CmcbfBroker", "KtcbfBroker", "MigrationBackfillBroker"]
