defmodule MyApp.Retry do
  @moduledoc """
  How often a request is tried again.
  """

  alias MyApp.Http.Client
  import MyApp.Backoff
  require Logger

  @max_attempts 5

  @doc """
  Runs `fun` until it succeeds.
  """
  def run(fun, attempts \\ @max_attempts) do
    case fun.() do
      {:ok, value} -> value
      {:error, _} -> Client.retry(fun, delay(attempts))
    end
  end

  defp delay(attempt), do: :math.pow(2, attempt)

  defmacro with_retry(do: block) do
    quote do: run(fn -> unquote(block) end)
  end
end

defprotocol MyApp.Transport do
  @doc "Sends a request."
  def send(request)
end

defmodule MyApp.Policy do
  defstruct max_attempts: 3, base: 100
end
