# Uploading through altool, retried.
private_lane :upload_binary_to_apple do |options|
  command = ['xcrun', 'altool', '--upload-app', '--type', options[:type], '--file', options[:path]]
  attempts = 0
  loop do
    succeeded = false
    sh(*command) { |status, _result, _command| succeeded = status.success? }
    break if succeeded
    attempts += 1
    UI.user_error!("altool upload failed after #{attempts} attempts.") if attempts > 3
  end
end
