# frozen_string_literal: true

require "logger"
require_relative "retry/errors"

# Retry helpers with exponential backoff.
module Retry
  # Default number of attempts before giving up.
  MAX_ATTEMPTS = 5

  # Computes the delay in seconds before the given attempt (0-based).
  def self.backoff(base_delay, attempt)
    base_delay * (2**attempt)
  end

  # Describes how often and how long to retry an operation.
  class RetryPolicy
    attr_reader :max_attempts, :base_delay

    # Creates a policy with the default attempt count.
    def initialize(base_delay:, max_attempts: MAX_ATTEMPTS, logger: Logger.new($stderr))
      @base_delay = base_delay
      @max_attempts = max_attempts
      @logger = logger
    end

    # Runs the block until it succeeds or the policy is exhausted.
    def run
      max_attempts.times do |attempt|
        begin
          return yield(attempt)
        rescue Retry::TransientError => e
          @logger.warn("attempt #{attempt + 1} failed: #{e.message}")
          wait(attempt)
        end
      end
      raise Retry::ExhaustedError, "gave up after #{max_attempts} attempts"
    end

    class << self
      # Builds a policy suitable for network calls.
      def for_network
        new(base_delay: 0.5)
      end
    end

    private

    # Sleeps for the backoff delay of the given attempt.
    def wait(attempt)
      sleep(Retry.backoff(base_delay, attempt))
    end
  end
end

# Specs beside the code (minitest/spec): each describe/it block is a symbol named
# by its title or the constant it describes.
if __FILE__ == $PROGRAM_NAME
  require "minitest/autorun"

  describe Retry do
    it "doubles the delay each attempt" do
      _(Retry.backoff(1, 2)).must_equal 4
    end
  end
end
