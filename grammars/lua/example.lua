-- retry.lua - retry policies with exponential backoff.
local socket = require("socket")
local log = require "retry.log"

local M = {}

--- Default number of attempts before giving up.
M.MAX_ATTEMPTS = 5

local DEFAULT_BASE_DELAY = 0.1

--- Computes the delay in seconds before the given attempt (0-based).
function M.backoff(base_delay, attempt)
  return base_delay * 2 ^ attempt
end

--- Returns true when the error looks transient.
local function is_transient(err)
  return type(err) == "string" and err:find("timeout") ~= nil
end

--- Describes how often and how long to retry an operation.
local RetryPolicy = {}
RetryPolicy.__index = RetryPolicy

--- Creates a policy with the default attempt count.
function RetryPolicy.new(base_delay, max_attempts)
  local self = setmetatable({}, RetryPolicy)
  self.base_delay = base_delay or DEFAULT_BASE_DELAY
  self.max_attempts = max_attempts or M.MAX_ATTEMPTS
  return self
end

--- Runs op until it succeeds or the policy is exhausted.
function RetryPolicy:run(op, ...)
  for attempt = 0, self.max_attempts - 1 do
    local ok, result = pcall(op, ...)
    if ok then
      return result
    end
    if not is_transient(result) then
      error(result)
    end
    self:wait(attempt)
  end
  return nil, "exhausted"
end

--- Sleeps for the backoff delay of the given attempt.
function RetryPolicy:wait(attempt)
  log.debug("retrying attempt " .. (attempt + 1))
  socket.sleep(M.backoff(self.base_delay, attempt))
end

--- Wraps fn so that every call is retried with the default policy.
M.wrap = function(fn)
  local policy = RetryPolicy.new()
  return function(...)
    return policy:run(fn, ...)
  end
end

M.RetryPolicy = RetryPolicy

return M
