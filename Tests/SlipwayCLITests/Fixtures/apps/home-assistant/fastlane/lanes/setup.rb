# Set-up shared by every lane.
before_all do
  setup
end

private_lane :setup do
  ENV['FASTLANE_TEAM_ID'] = ENV.fetch('HOMEASSISTANT_TEAM_ID', nil)
  app_store_connect_api_key if ENV['APP_STORE_CONNECT_API_KEY_KEY']
end

private_lane :setup_ha_ci do
  setup_ci
  sync_code_signing(type: 'appstore', readonly: true)
end
