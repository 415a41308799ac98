import Testing
import Yams
import WSClient
import TestSupport
