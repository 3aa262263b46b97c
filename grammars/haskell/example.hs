module Network.Retry
  ( RetryPolicy(..)
  , retrying
  ) where

import Control.Concurrent (threadDelay)
import qualified Data.Map as Map

-- | How often a request is tried again.
data RetryPolicy = RetryPolicy
  { maxAttempts :: Int
  , baseDelay :: Int
  }

-- | Something that can send.
class Transport t where
  send :: t -> Request -> IO Response

newtype Client = Client RetryPolicy

instance Transport Client where
  send (Client p) req = perform req (delay p 1)

-- | Delay before the next attempt.
delay :: RetryPolicy -> Int -> Int
delay p n = baseDelay p * 2 ^ n

retrying :: RetryPolicy -> IO a -> IO a
retrying p act = do
  threadDelay (delay p 1)
  act

type Handler = Response -> IO ()
